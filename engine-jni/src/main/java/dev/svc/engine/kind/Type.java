package dev.svc.engine.kind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A Sigil type, as the inputs, host functions and payload fields of a {@link Kind} declare it. Its
 * {@link Object#toString() toString()} is the type as a kind file writes it: {@code string}, {@code
 * list<Alert>}, {@code map<string, int>}, {@code ?Team}, or an enum's or struct's own name.
 *
 * <pre>{@code
 * Type.Enumeration severity = Type.enumeration("Severity", "critical", "warning", "info");
 * Type.Structure alert =
 *     Type.structure("Alert")
 *         .field("severity", severity)
 *         .field("labels", Type.map(Type.STRING, Type.STRING));
 * }</pre>
 *
 * <p>Types compare structurally: two enums, or two structs, are equal when their names and values,
 * or names and fields, are. A kind needs every enum and struct name to stand for one type.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public sealed interface Type
    permits Type.Scalar,
        Type.ListOf,
        Type.MapOf,
        Type.OptionalOf,
        Type.Enumeration,
        Type.Structure {

  /** {@code string}. */
  Type STRING = Scalar.STRING;

  /** {@code bool}. */
  Type BOOL = Scalar.BOOL;

  /** {@code int}: a 64-bit integer. */
  Type INT = Scalar.INT;

  /** {@code float}: a 64-bit floating-point number. */
  Type FLOAT = Scalar.FLOAT;

  /** {@code duration}, written {@code 1h30m} (see {@link dev.svc.engine.Durations}). */
  Type DURATION = Scalar.DURATION;

  /** {@code timestamp}: an RFC 3339 text going in and coming out. */
  Type TIMESTAMP = Scalar.TIMESTAMP;

  /**
   * {@code list<T>}.
   *
   * @param element the type of the elements
   * @return the list type
   */
  static ListOf list(Type element) {
    return new ListOf(element);
  }

  /**
   * {@code map<K, V>}. Keys cross as JSON object keys: {@code "3"} for an int key.
   *
   * @param key the type of the keys
   * @param value the type of the values
   * @return the map type
   */
  static MapOf map(Type key, Type value) {
    return new MapOf(key, value);
  }

  /**
   * {@code ?T}: a value or none.
   *
   * @param element the type of the value
   * @return the optional type
   */
  static OptionalOf optional(Type element) {
    return new OptionalOf(element);
  }

  /**
   * An enum: a closed set of names that policies write bare.
   *
   * @param name the enum's name, such as {@code Severity}
   * @param values its values in declaration order, such as {@code critical}
   * @return the enum type
   */
  static Enumeration enumeration(String name, String... values) {
    return new Enumeration(name, List.of(values));
  }

  /**
   * A struct type without fields yet; add them with {@link Structure#field(String, Type)}.
   *
   * @param name the struct's name, such as {@code Alert}
   * @return the struct type
   */
  static Structure structure(String name) {
    return new Structure(name, List.of());
  }

  /** The types that are no more than their name. */
  enum Scalar implements Type {
    /** {@code string}. */
    STRING,
    /** {@code bool}. */
    BOOL,
    /** {@code int}. */
    INT,
    /** {@code float}. */
    FLOAT,
    /** {@code duration}. */
    DURATION,
    /** {@code timestamp}. */
    TIMESTAMP;

    /** The type's name in a kind file: {@code string}, {@code int} … */
    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * {@code list<T>}.
   *
   * @param element the type of the elements
   */
  record ListOf(Type element) implements Type {

    /**
     * Checks that the element type is given.
     *
     * @param element the type of the elements
     */
    public ListOf {
      Objects.requireNonNull(element, "element");
    }

    /** {@code list<T>}. */
    @Override
    public String toString() {
      return "list<" + element + ">";
    }
  }

  /**
   * {@code map<K, V>}.
   *
   * @param key the type of the keys
   * @param value the type of the values
   */
  record MapOf(Type key, Type value) implements Type {

    /**
     * Checks that both types are given.
     *
     * @param key the type of the keys
     * @param value the type of the values
     */
    public MapOf {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
    }

    /** {@code map<K, V>}, with a comma and one space. */
    @Override
    public String toString() {
      return "map<" + key + ", " + value + ">";
    }
  }

  /**
   * {@code ?T}.
   *
   * @param element the type of the value
   */
  record OptionalOf(Type element) implements Type {

    /**
     * Checks that the element type is given.
     *
     * @param element the type of the value
     */
    public OptionalOf {
      Objects.requireNonNull(element, "element");
    }

    /** {@code ?T}. */
    @Override
    public String toString() {
      return "?" + element;
    }
  }

  /**
   * An enum. A kind prints it as {@code enum Severity: critical | warning | info}.
   *
   * @param name the enum's name
   * @param values its values in declaration order
   */
  record Enumeration(String name, List<String> values) implements Type {

    /**
     * Copies the values; neither part may be null.
     *
     * @param name the enum's name
     * @param values its values in declaration order
     */
    public Enumeration {
      Objects.requireNonNull(name, "name");
      values = List.copyOf(values);
    }

    /** The enum's name. */
    @Override
    public String toString() {
      return name;
    }
  }

  /**
   * One field of a struct type.
   *
   * @param name the field's name
   * @param type the field's type
   */
  record Field(String name, Type type) {

    /**
     * Checks that both parts are given.
     *
     * @param name the field's name
     * @param type the field's type
     */
    public Field {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
    }
  }

  /**
   * A struct type: named fields in declaration order.
   *
   * @param name the struct's name
   * @param fields its fields in declaration order
   */
  record Structure(String name, List<Field> fields) implements Type {

    /**
     * Copies the fields; neither part may be null.
     *
     * @param name the struct's name
     * @param fields its fields in declaration order
     */
    public Structure {
      Objects.requireNonNull(name, "name");
      fields = List.copyOf(fields);
    }

    /**
     * This struct with one more field after the others.
     *
     * @param name the field's name
     * @param type the field's type
     * @return a new struct type; this one is unchanged
     */
    public Structure field(String name, Type type) {
      List<Field> more = new ArrayList<>(fields);
      more.add(new Field(name, type));
      return new Structure(this.name, more);
    }

    /** The struct's name. */
    @Override
    public String toString() {
      return name;
    }
  }
}
