//! Expressions at runtime (language-core §5–7): every operator, lets and
//! conditions memoised per evaluation, runtime errors with their exact
//! messages, and the deadline polled every 256 loop steps.

use std::borrow::Cow;
use std::rc::Rc;
use std::time::Instant;

use super::values::{equal, lookup, member, order};
use super::{Candidate, Host, Outcome, RuntimeError, Stop};
use crate::diag::go_quote;
use crate::program::{Arith, At, Comparison, EnumRead, Ex, IndexEx, ListOp, Program, WhenNode};
use crate::value::{Timestamp, Value};

/// How many loop steps run between two looks at the clock.
const STEPS_PER_POLL: u32 = 256;

/// What `outcome` and `outcome.d` read in phase 3.
struct OutcomeValues {
    /// The distinct `d.r` of the outcome, in outcome order.
    decisions: Rc<[Value]>,
    /// The outcome's candidates: decision, reason, payload as a struct.
    candidates: Vec<(usize, Rc<str>, Value)>,
}

/// One evaluation's memory.
pub(super) struct State<'a> {
    program: &'a Program,
    inputs: &'a [Value],
    host: &'a mut dyn Host,
    lets: Vec<Option<Result<Value, Rc<RuntimeError>>>>,
    conditions: Vec<Option<Result<bool, Rc<RuntimeError>>>>,
    vars: Vec<Value>,
    deadline: Option<Instant>,
    steps: u32,
    outcome: Option<OutcomeValues>,
}

type Eval<T> = Result<T, Stop>;

fn fail(at: &At, message: String) -> Stop {
    Stop::Error(Rc::new(RuntimeError {
        at: at.clone(),
        message,
        help: None,
    }))
}

impl<'a> State<'a> {
    pub(super) fn new(
        program: &'a Program,
        inputs: &'a [Value],
        host: &'a mut dyn Host,
        deadline: Option<Instant>,
    ) -> Self {
        State {
            program,
            inputs,
            host,
            lets: vec![None; program.lets.len()],
            conditions: vec![None; program.conditions],
            vars: Vec::new(),
            deadline,
            steps: 0,
            outcome: None,
        }
    }

    pub(super) fn program(&self) -> &'a Program {
        self.program
    }

    /// Stops when the deadline has passed.
    pub(super) fn poll(&mut self) -> Eval<()> {
        match self.deadline {
            Some(deadline) if Instant::now() >= deadline => Err(Stop::Canceled),
            _ => Ok(()),
        }
    }

    /// One loop step: every 256th looks at the clock.
    fn step(&mut self) -> Eval<()> {
        self.steps = self.steps.wrapping_add(1);
        if self.steps.is_multiple_of(STEPS_PER_POLL) {
            self.poll()?;
        }
        Ok(())
    }

    /// A `when` block's condition, evaluated once per evaluation.
    pub(super) fn condition(&mut self, w: &WhenNode) -> Eval<bool> {
        if let Some(Some(memo)) = self.conditions.get(w.slot) {
            return memo.clone().map_err(Stop::Error);
        }
        let result = match self.eval(&w.cond, self.vars.len()) {
            Ok(v) => Ok(matches!(v, Value::Bool(true))),
            Err(Stop::Error(e)) => Err(e),
            Err(Stop::Canceled) => return Err(Stop::Canceled),
        };
        if let Some(slot) = self.conditions.get_mut(w.slot) {
            *slot = Some(result.clone());
        }
        result.map_err(Stop::Error)
    }

    /// Makes `outcome` readable: the top candidates of `trace`, or the
    /// default's when nothing fired.
    pub(super) fn set_outcome(&mut self, trace: &[Candidate], outcome: &Outcome) {
        let program = self.program;
        let mut candidates: Vec<(usize, Rc<str>, Value)> = Vec::new();
        match outcome {
            Outcome::Top(top) => {
                for c in top.iter().filter_map(|&i| trace.get(i)) {
                    if let Some(rule) = program.rules.get(c.rule) {
                        let value =
                            candidate_struct(program, rule.decision, &rule.reason, &c.payload);
                        candidates.push((rule.decision, rule.reason.clone(), value));
                    }
                }
            }
            Outcome::Default => {
                if let Some(d) = &program.default {
                    let value = candidate_struct(program, d.decision, &d.reason, &d.payload);
                    candidates.push((d.decision, d.reason.clone(), value));
                }
            }
            Outcome::Conflict | Outcome::Empty => {}
        }
        let mut decisions: Vec<Value> = Vec::new();
        for (d, r, _) in &candidates {
            let name = program
                .kind
                .decisions
                .get(*d)
                .map_or("", |d| d.name.as_str());
            let value = Value::Decision(Rc::from(format!("{name}.{r}")));
            if !decisions.iter().any(|x| equal(x, &value)) {
                decisions.push(value);
            }
        }
        self.outcome = Some(OutcomeValues {
            decisions: Rc::from(decisions),
            candidates,
        });
    }

    /// The value of `ex`; variables are read from `base` up.
    pub(super) fn eval(&mut self, ex: &Ex, base: usize) -> Eval<Value> {
        match ex {
            Ex::Lit(v) => Ok(v.clone()),
            Ex::Input(i) => Ok(self.inputs.get(*i).cloned().unwrap_or(Value::Absent)),
            Ex::Let(slot) => self.let_value(*slot),
            Ex::Var(depth) => Ok(self
                .vars
                .get(base + depth)
                .cloned()
                .unwrap_or(Value::Absent)),
            Ex::Outcome => Ok(Value::List(
                self.outcome
                    .as_ref()
                    .map(|o| Rc::clone(&o.decisions))
                    .unwrap_or_else(|| Rc::from(Vec::new())),
            )),
            Ex::OutcomeOf { decision, reason } => Ok(self.outcome_of(*decision, reason.as_deref())),
            Ex::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.push(self.eval(item, base)?);
                }
                Ok(Value::List(Rc::from(out)))
            }
            Ex::Map(entries) => {
                let mut out: Vec<(Value, Value)> = Vec::with_capacity(entries.len());
                for (k, v) in entries {
                    let key = self.eval(k, base)?;
                    let value = self.eval(v, base)?;
                    match out.iter_mut().find(|(existing, _)| equal(existing, &key)) {
                        Some(entry) => entry.1 = value,
                        None => out.push((key, value)),
                    }
                }
                Ok(Value::Map(Rc::from(out)))
            }
            Ex::Not(e) => Ok(Value::Bool(!self.truth(e, base)?)),
            Ex::Neg(e, at) => negate(self.eval(e, base)?, at),
            Ex::Present(e) => Ok(Value::Bool(!matches!(self.eval(e, base)?, Value::Absent))),
            Ex::And(a, b) => Ok(Value::Bool(self.truth(a, base)? && self.truth(b, base)?)),
            Ex::Or(a, b) => Ok(Value::Bool(self.truth(a, base)? || self.truth(b, base)?)),
            Ex::Xor(a, b) => {
                let a = self.truth(a, base)?;
                Ok(Value::Bool(a != self.truth(b, base)?))
            }
            Ex::Compare(c, a, b) => {
                let a = self.operand(a, base)?;
                let b = self.operand(b, base)?;
                Ok(Value::Bool(compare(*c, &a, &b)))
            }
            Ex::In { negated, lhs, rhs } => {
                let x = self.operand(lhs, base)?;
                let y = self.operand(rhs, base)?;
                Ok(Value::Bool(self.contains(&x, &y)? != *negated))
            }
            Ex::ListOp(op, a, b) => {
                let a = self.eval(a, base)?;
                let b = self.eval(b, base)?;
                Ok(Value::Bool(self.list_op(*op, &a, &b)?))
            }
            Ex::Has(m, k) => {
                let m = self.eval(m, base)?;
                let k = self.eval(k, base)?;
                Ok(Value::Bool(self.has(&m, &k)?))
            }
            Ex::Like(s, glob) => Ok(Value::Bool(match self.eval(s, base)? {
                Value::String(s) => glob.is_match(&s),
                _ => false,
            })),
            Ex::Matches(s, re) => Ok(Value::Bool(match self.eval(s, base)? {
                Value::String(s) => re.is_match(&s),
                _ => false,
            })),
            Ex::Coalesce(a, b) => match self.eval(a, base)? {
                Value::Absent => self.eval(b, base),
                v => Ok(v),
            },
            Ex::Arith(a) => self.arith(a, base),
            Ex::Field(target, name) => Ok(match self.operand(target, base)?.as_ref() {
                Value::Struct(fields) => field(fields, name).cloned().unwrap_or(Value::Absent),
                _ => Value::Absent,
            }),
            Ex::Index(ix) => self.index(ix, base),
            Ex::EnumRead(r) => self.enum_read(r, base),
            Ex::Call { function, args, at } => self.call(*function, args, at, base),
            Ex::Quantifier { any, range, body } => {
                let Value::List(items) = self.eval(range, base)? else {
                    return Ok(Value::Bool(!any));
                };
                for item in items.iter() {
                    self.step()?;
                    self.vars.push(item.clone());
                    let holds = self.truth(body, base);
                    self.vars.pop();
                    if holds? == *any {
                        return Ok(Value::Bool(*any));
                    }
                }
                Ok(Value::Bool(!any))
            }
            Ex::Filter { range, body } => {
                let Value::List(items) = self.eval(range, base)? else {
                    return Ok(Value::List(Rc::from(Vec::new())));
                };
                let mut kept = Vec::new();
                for item in items.iter() {
                    self.step()?;
                    self.vars.push(item.clone());
                    let holds = self.truth(body, base);
                    self.vars.pop();
                    if holds? {
                        kept.push(item.clone());
                    }
                }
                Ok(Value::List(Rc::from(kept)))
            }
        }
    }

    /// The value of an operand: a literal, an input or a field of one
    /// (`user.teams`) by reference (most operands are one, and a clone
    /// would count references up and down, the struct's and the field's),
    /// anything else evaluated.
    fn operand<'v>(&mut self, ex: &'v Ex, base: usize) -> Eval<Cow<'v, Value>>
    where
        'a: 'v,
    {
        match read_in_place(self.inputs, ex) {
            Some(Some(value)) => Ok(Cow::Borrowed(value)),
            Some(None) => Ok(Cow::Owned(Value::Absent)),
            None => self.eval(ex, base).map(Cow::Owned),
        }
    }

    fn truth(&mut self, ex: &Ex, base: usize) -> Eval<bool> {
        Ok(matches!(
            self.operand(ex, base)?.as_ref(),
            Value::Bool(true)
        ))
    }

    fn let_value(&mut self, slot: usize) -> Eval<Value> {
        if let Some(Some(memo)) = self.lets.get(slot) {
            return memo.clone().map_err(Stop::Error);
        }
        let program = self.program;
        let Some(ex) = program.lets.get(slot) else {
            return Ok(Value::Absent);
        };
        // A let sees no quantifier variable: its own start is the top.
        let result = match self.eval(ex, self.vars.len()) {
            Ok(v) => Ok(v),
            Err(Stop::Error(e)) => Err(e),
            Err(Stop::Canceled) => return Err(Stop::Canceled),
        };
        if let Some(place) = self.lets.get_mut(slot) {
            *place = Some(result.clone());
        }
        result.map_err(Stop::Error)
    }

    fn outcome_of(&self, decision: usize, reason: Option<&str>) -> Value {
        let candidates: Vec<Value> = self
            .outcome
            .iter()
            .flat_map(|o| o.candidates.iter())
            .filter(|(d, r, _)| *d == decision && reason.is_none_or(|want| **r == *want))
            .map(|(_, _, payload)| payload.clone())
            .collect();
        Value::List(Rc::from(candidates))
    }

    /// `x in y`: membership in a list, or substring of a string.
    fn contains(&mut self, x: &Value, y: &Value) -> Eval<bool> {
        match (x, y) {
            (Value::String(needle), Value::String(hay)) => {
                Ok(needle.is_empty() || hay.windows(needle.len()).any(|w| w == needle.as_ref()))
            }
            (_, Value::List(items)) => {
                for item in items.iter() {
                    self.step()?;
                    if member(x, item) {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            _ => Ok(false),
        }
    }

    /// The list set operators: "is in `b`" is membership, "distinct"
    /// de-duplicates `a` by equality.
    fn list_op(&mut self, op: ListOp, a: &Value, b: &Value) -> Eval<bool> {
        let (Value::List(a), Value::List(_)) = (a, b) else {
            return Ok(false);
        };
        match op {
            ListOp::All => {
                for x in a.iter() {
                    if !self.contains(x, b)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            ListOp::Any => {
                for x in a.iter() {
                    if self.contains(x, b)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            ListOp::One | ListOp::Exclusive => {
                let mut distinct: Vec<&Value> = Vec::new();
                for x in a.iter() {
                    self.step()?;
                    if !distinct.iter().any(|d| equal(d, x)) {
                        distinct.push(x);
                    }
                }
                let mut found = 0usize;
                for x in distinct {
                    if self.contains(x, b)? {
                        found += 1;
                    }
                }
                Ok(match op {
                    ListOp::One => found == 1,
                    _ => found <= 1,
                })
            }
        }
    }

    /// `m has k` (key presence) or `m has n` (every entry of `n` in `m`).
    fn has(&mut self, m: &Value, k: &Value) -> Eval<bool> {
        let Value::Map(entries) = m else {
            return Ok(false);
        };
        match k {
            Value::Map(wanted) => {
                for (key, value) in wanted.iter() {
                    self.step()?;
                    if !lookup(entries, key).is_some_and(|v| equal(v, value)) {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            key => Ok(lookup(entries, key).is_some()),
        }
    }

    fn arith(&mut self, a: &Arith, base: usize) -> Eval<Value> {
        let l = self.operand(&a.lhs, base)?;
        let r = self.operand(&a.rhs, base)?;
        let overflow = |what: &str| fail(&a.at, format!("{what} overflow in `{}`", a.text));
        match (l.as_ref(), r.as_ref(), a.minus) {
            (&Value::Int(x), &Value::Int(y), minus) => match minus {
                false => x.checked_add(y),
                true => x.checked_sub(y),
            }
            .map(Value::Int)
            .ok_or_else(|| overflow("integer")),
            (&Value::Duration(x), &Value::Duration(y), minus) => match minus {
                false => x.checked_add(y),
                true => x.checked_sub(y),
            }
            .map(Value::Duration)
            .ok_or_else(|| overflow("duration")),
            (&Value::Float(x), &Value::Float(y), minus) => {
                Ok(Value::Float(if minus { x - y } else { x + y }))
            }
            (&Value::Timestamp(t), &Value::Duration(d), minus) => {
                let d = if minus { d.saturating_neg() } else { d };
                Ok(Value::Timestamp(shift(t, d)))
            }
            (&Value::Timestamp(x), &Value::Timestamp(y), true) => {
                Ok(Value::Duration(between(x, y)))
            }
            _ => Ok(Value::Absent),
        }
    }

    fn index(&mut self, ix: &IndexEx, base: usize) -> Eval<Value> {
        let target = self.eval(&ix.target, base)?;
        let index = self.eval(&ix.index, base)?;
        match (target, index) {
            (Value::List(items), Value::Int(i)) => usize::try_from(i)
                .ok()
                .and_then(|i| items.get(i))
                .cloned()
                .ok_or_else(|| {
                    fail(
                        &ix.at,
                        format!("index {i} out of range for a list of {}", items.len()),
                    )
                }),
            (Value::Map(entries), key) => Ok(lookup(&entries, &key)
                .cloned()
                .or_else(|| ix.zero.clone())
                .unwrap_or(Value::Absent)),
            _ => Ok(Value::Absent),
        }
    }

    /// An enum-typed read: a value its enum doesn't declare (the empty name
    /// a missing key reads as) is a runtime error (language-core §7).
    fn enum_read(&mut self, r: &EnumRead, base: usize) -> Eval<Value> {
        let value = self.eval(&r.read, base)?;
        let Value::Enum(name) = &value else {
            return Ok(value);
        };
        let Some(def) = self.program.kind.enums.get(r.enumeration) else {
            return Ok(value);
        };
        if def.values.iter().any(|v| **v == **name) {
            return Ok(value);
        }
        Err(Stop::Error(Rc::new(RuntimeError {
            at: r.at.clone(),
            message: format!(
                "{}: {} is not a value of {}",
                r.text,
                go_quote(name),
                def.name
            ),
            help: Some(format!("{} declares: {}", def.name, def.values.join(", "))),
        })))
    }

    fn call(&mut self, function: usize, args: &[Ex], at: &At, base: usize) -> Eval<Value> {
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            values.push(self.eval(a, base)?);
        }
        let program = self.program;
        let Some(def) = program.kind.funcs.get(function) else {
            return Ok(Value::Absent);
        };
        let result = self.host.call(def, &values);
        self.poll()?;
        result.map_err(|e| {
            Stop::Error(Rc::new(RuntimeError {
                at: at.clone(),
                message: format!("host function {} failed: {}", def.name, e.text),
                help: e.help,
            }))
        })
    }
}

/// The value of `ex` where it already is, when `ex` is a literal, an input
/// or a field of one of those: `Some(None)` for an absent one (a field of
/// something that isn't a struct, or an input out of range), as
/// [`State::eval`] gives them. `None` for any other expression.
fn read_in_place<'v>(inputs: &'v [Value], ex: &'v Ex) -> Option<Option<&'v Value>> {
    match ex {
        Ex::Lit(v) => Some(Some(v)),
        Ex::Input(i) => Some(inputs.get(*i)),
        Ex::Field(target, name) => Some(match read_in_place(inputs, target)? {
            Some(Value::Struct(fields)) => field(fields, name),
            _ => None,
        }),
        _ => None,
    }
}

/// The field `name` of a struct's `fields`.
fn field<'v>(fields: &'v [(Rc<str>, Value)], name: &str) -> Option<&'v Value> {
    fields.iter().find(|(n, _)| **n == *name).map(|(_, v)| v)
}

/// A candidate as `outcome.d` reads it (language-core §4.7): its payload
/// fields, and `reason` as the decision value `d.r`.
fn candidate_struct(
    program: &Program,
    decision: usize,
    reason: &str,
    payload: &[(Rc<str>, Value)],
) -> Value {
    let name = program
        .kind
        .decisions
        .get(decision)
        .map_or("", |d| d.name.as_str());
    let mut fields: Vec<(Rc<str>, Value)> = payload.to_vec();
    fields.push((
        Rc::from("reason"),
        Value::Decision(Rc::from(format!("{name}.{reason}"))),
    ));
    fields.sort_by(|a, b| a.0.cmp(&b.0));
    Value::Struct(fields.into())
}

fn compare(c: Comparison, a: &Value, b: &Value) -> bool {
    use std::cmp::Ordering::{Equal, Greater, Less};
    match c {
        Comparison::Eq => equal(a, b),
        Comparison::NotEq => !equal(a, b),
        Comparison::Lt => order(a, b) == Some(Less),
        Comparison::LtEq => matches!(order(a, b), Some(Less | Equal)),
        Comparison::Gt => order(a, b) == Some(Greater),
        Comparison::GtEq => matches!(order(a, b), Some(Greater | Equal)),
    }
}

fn negate(v: Value, at: &At) -> Eval<Value> {
    match v {
        Value::Int(i) => i
            .checked_neg()
            .map(Value::Int)
            .ok_or_else(|| fail(at, format!("integer overflow negating {i}"))),
        Value::Duration(d) => d.checked_neg().map(Value::Duration).ok_or_else(|| {
            fail(
                at,
                "duration overflow negating -2562047h47m16.854775808s".to_owned(),
            )
        }),
        Value::Float(f) => Ok(Value::Float(-f)),
        other => Ok(other),
    }
}

const NANOS: i128 = 1_000_000_000;

fn nanos_of(t: &Timestamp) -> i128 {
    i128::from(t.seconds) * NANOS + i128::from(t.nanos)
}

/// `t + d`, keeping `t`'s zone.
fn shift(t: Timestamp, d: i64) -> Timestamp {
    let total = nanos_of(&t) + i128::from(d);
    Timestamp {
        seconds: i64::try_from(total.div_euclid(NANOS)).unwrap_or(i64::MAX),
        nanos: u32::try_from(total.rem_euclid(NANOS)).unwrap_or(0),
        offset: t.offset,
    }
}

/// `x - y`, saturating at the duration limits as Go's `Sub` does.
fn between(x: Timestamp, y: Timestamp) -> i64 {
    let d = nanos_of(&x) - nanos_of(&y);
    i64::try_from(d).unwrap_or(if d < 0 { i64::MIN } else { i64::MAX })
}
