//! Recursive struct types (§2.3): a struct may not reach itself through
//! its fields, lists, map values or optionals. Each struct reports only the
//! cycle that starts at itself, as `A -> B -> A`.

use super::error::TypeError;
use super::load::Loader;
use crate::types::Ty;

impl Loader<'_> {
    /// Reports every struct type that reaches itself, at its name.
    pub(super) fn check_cycles(&mut self) {
        let edges = self.struct_edges();
        for (start, decl) in self.decls.types.clone().into_iter().enumerate() {
            let Some(path) = cycle_from(start, &edges) else {
                continue;
            };
            let path = path
                .iter()
                .filter_map(|&i| self.types.get(i))
                .map(|t| t.name.clone())
                .collect();
            let problem = TypeError::Recursive {
                name: decl.name.name.clone(),
                path,
            };
            self.report(problem.to_diagnostic(decl.name.span));
        }
    }

    /// For each struct, the structs its fields hold, in field order, by
    /// index into `self.types`.
    fn struct_edges(&self) -> Vec<Vec<usize>> {
        self.types
            .iter()
            .map(|t| {
                t.fields
                    .iter()
                    .filter_map(|f| held_struct(&f.ty))
                    .filter_map(|name| self.types.iter().position(|s| s.name == name))
                    .collect()
            })
            .collect()
    }
}

/// The struct a value of `ty` holds, looking through lists, map values and
/// optionals.
fn held_struct(ty: &Ty) -> Option<&str> {
    match ty {
        Ty::Struct(name) => Some(name),
        Ty::List(elem) | Ty::Optional(elem) | Ty::Map(_, elem) => held_struct(elem),
        _ => None,
    }
}

/// The first path (depth first, fields in order) from `start` back to
/// itself, both ends included, or `None`. Iterative, and each struct is
/// entered once, so a long chain or a dense graph of types stays cheap.
fn cycle_from(start: usize, edges: &[Vec<usize>]) -> Option<Vec<usize>> {
    let mut entered = vec![false; edges.len()];
    // The current path, each step with the index of its next edge to try.
    let mut path: Vec<(usize, usize)> = vec![(start, 0)];
    while let Some((node, next)) = path.last_mut() {
        let Some(&to) = edges.get(*node).and_then(|e| e.get(*next)) else {
            path.pop();
            continue;
        };
        *next += 1;
        if to == start {
            let mut out: Vec<usize> = path.iter().map(|&(n, _)| n).collect();
            out.push(start);
            return Some(out);
        }
        if let Some(seen) = entered.get_mut(to) {
            if !*seen {
                *seen = true;
                path.push((to, 0));
            }
        }
    }
    None
}
