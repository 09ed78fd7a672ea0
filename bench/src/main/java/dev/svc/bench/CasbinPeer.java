package dev.svc.bench;

import org.casbin.jcasbin.main.Enforcer;
import org.casbin.jcasbin.model.Model;

/** A jCasbin enforcer over a model given as text: a request is the enforcer's arguments. */
abstract class CasbinPeer implements AccessPeer<Object[]> {

  /** The enforcer, without policy rows until a subclass adds them. */
  protected final Enforcer enforcer;

  CasbinPeer(String model) {
    Model parsed = new Model();
    parsed.loadModelFromText(model);
    enforcer = new Enforcer(parsed);
  }

  @Override
  public Object decide(Object[] request) {
    return enforcer.enforce(request);
  }

  @Override
  public boolean allows(Object answer) {
    return (Boolean) answer;
  }

  @Override
  public void close() {}
}
