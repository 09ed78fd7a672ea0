//! A request shape shared by the bounds tests and the `abuse` example
//! (issue #20), which includes this file by path.

/// A chain of `depth` policies `door.main`, `door.p1`, ... of the Door
/// kind (path, source): each invokes the next twice, with different
/// arguments, and the last holds a rule, so compiling the first naively
/// makes 2^depth instances.
pub(crate) fn chain(depth: usize) -> Vec<(String, String)> {
    let name = |i: usize| match i {
        0 => "main".to_owned(),
        i => format!("p{i}"),
    };
    (0..depth)
        .map(|i| {
            let body = match i + 1 < depth {
                true => format!(
                    "use door.{next}\n\nparam n: int = 0\n\n{next}(n: 1)\n{next}(n: 2)\n",
                    next = name(i + 1)
                ),
                false => {
                    "param n: int = 0\n\nwhen floor > n {\n  allow(reason: member)\n}\n".to_owned()
                }
            };
            let source = format!("policy door.{}: Door@1\n\n{body}", name(i));
            (format!("door/{}.sigil", name(i)), source)
        })
        .collect()
}
