package dev.svc.engine.kind;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The enums and struct types a kind reaches, in the order the kind file prints them (bindings.md
 * §13.3): an enum where it is first reached, a struct before its own fields, so a nested struct
 * prints after the struct that holds it.
 */
final class TypeWalk {

  private final List<Type.Enumeration> enums = new ArrayList<>();
  private final List<Type.Structure> structs = new ArrayList<>();
  private final Map<String, Type> byName = new HashMap<>();
  private final List<String> problems;

  /** A walk that reports a name clash to {@code problems}. */
  TypeWalk(List<String> problems) {
    this.problems = problems;
  }

  /** Registers the enums and structs {@code type} reaches that are new. */
  void visit(Type type) {
    if (type instanceof Type.Enumeration enumeration) {
      if (claim(enumeration)) {
        enums.add(enumeration);
      }
    } else if (type instanceof Type.Structure struct) {
      if (claim(struct)) {
        structs.add(struct);
        for (Type.Field field : struct.fields()) {
          visit(field.type());
        }
      }
    } else if (type instanceof Type.ListOf list) {
      visit(list.element());
    } else if (type instanceof Type.OptionalOf optional) {
      visit(optional.element());
    } else if (type instanceof Type.MapOf map) {
      visit(map.key());
      visit(map.value());
    }
  }

  /** The enums reached, in order. */
  List<Type.Enumeration> enums() {
    return enums;
  }

  /** The struct types reached, in order. */
  List<Type.Structure> structs() {
    return structs;
  }

  // Whether the name is new. The same type again is no news; another type under a taken name is
  // a clash, and the first one keeps the name.
  private boolean claim(Type type) {
    String name = type.toString();
    Type known = byName.putIfAbsent(name, type);
    if (known == null) {
      return true;
    }
    if (!known.equals(type)) {
      problems.add(
          "two different types are both named "
              + name
              + " (rename one; each enum and struct needs a name of its own)");
    }
    return false;
  }
}
