// The functions module of the worker tests: host functions the worker imports by name.

/** Splits a label; the label "spin" makes it never return, so only terminating its worker stops it. */
export function split(text: string, separator: string): string[] {
  while (text === "spin") {
    // a host function that blocks: the worker's deadline is the only way out
  }
  return text.split(separator);
}

/** Describes nothing. */
export function describe(): string {
  return "";
}

/** AlertRouting's host function, as the worker's functions module gives it. */
export function oncall_for(name: string): string {
  return `the module's oncall for ${name}`;
}
