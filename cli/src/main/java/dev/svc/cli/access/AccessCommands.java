package dev.svc.cli.access;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import picocli.CommandLine;
import picocli.CommandLine.IFactory;

/**
 * The user commands of {@code svc} (access-server spec §11.3), for the root command to register, and
 * the factory that gives each its {@link ClientRuntime}.
 */
public final class AccessCommands {

  private AccessCommands() {}

  /**
   * The top-level user commands, in the order help lists them.
   *
   * @return the command classes
   */
  public static Class<?>[] commands() {
    return new Class<?>[] {
      LoginCommand.class, ShellCommand.class, KubeconfigCommand.class, ReauthenticateCommand.class,
      SignoutCommand.class, ClusterInfoCommand.class, ConfigCommand.class, GetCommand.class, SetCommand.class,
      GenerateCommand.class, CompletionCommand.class
    };
  }

  /**
   * A factory that builds the user commands with {@code runtime} and every other class as picocli
   * does.
   *
   * @param runtime the process's environment, clock and terminal
   * @return the factory
   */
  public static IFactory factory(ClientRuntime runtime) {
    IFactory fallback = CommandLine.defaultFactory();
    return new IFactory() {
      @Override
      public <K> K create(Class<K> cls) throws Exception {
        Constructor<K> constructor;
        try {
          constructor = cls.getDeclaredConstructor(ClientRuntime.class);
        } catch (NoSuchMethodException e) {
          return fallback.create(cls);
        }
        constructor.setAccessible(true);
        try {
          return constructor.newInstance(runtime);
        } catch (InvocationTargetException e) {
          throw e.getCause() instanceof Exception cause ? cause : e;
        }
      }
    };
  }
}
