//! A writer for the CPLEX LP text format, the common language of cbc, glpsol (`--lp`) and HiGHS.
//! good_lp cannot export models, so `write()` prints a [`LinearModel`] itself: the objective is
//! the sum of the primary variables (the same in every solution, so any feasible point is
//! optimal), 0-1 variables go to `Binaries`, fixed ones to `Bounds` and `Generals`.

use super::{LinearModel, Sense, Term};
use std::fmt::Write as _;

/// Terms per line; LP readers accept long lines, but short ones keep the file readable.
const TERMS_PER_LINE: usize = 8;

/// Name of a variable fixed at 0 that stands in for an empty left side.
pub(crate) const ZERO: &str = "zero";

/// The model as CPLEX LP text. `comment` lines (without the leading `\`) open the file.
pub(crate) fn write(model: &LinearModel, comment: &[String]) -> String {
    let mut out = String::new();
    for line in comment {
        let _ = writeln!(out, "\\ {line}");
    }
    let _ = writeln!(
        out,
        "\\ {} model: {} variables, {} constraints",
        model.model,
        model.vars.len(),
        model.constraints.len()
    );
    let mut need_zero = false;

    out.push_str("Minimize\n obj:");
    let objective: Vec<Term> = model
        .primary
        .iter()
        .map(|&var| Term { var, coef: 1 })
        .collect();
    if objective.is_empty() {
        need_zero = true;
        let _ = write!(out, " 0 {ZERO}");
    } else {
        write_terms(&mut out, model, &objective);
    }
    out.push('\n');

    out.push_str("Subject To\n");
    for c in &model.constraints {
        let _ = write!(out, " {}:", c.name);
        if c.terms.is_empty() {
            need_zero = true;
            let _ = write!(out, " 0 {ZERO}");
        } else {
            write_terms(&mut out, model, &c.terms);
        }
        let sense = match c.sense {
            Sense::Le => "<=",
            Sense::Eq => "=",
            Sense::Ge => ">=",
        };
        let _ = writeln!(out, " {sense} {}", c.rhs);
    }

    let binary = |v: &super::VarDef| v.lower == 0 && v.upper == 1;
    out.push_str("Bounds\n");
    for v in model.vars.iter().filter(|v| !binary(v)) {
        if v.lower == v.upper {
            let _ = writeln!(out, " {} = {}", v.name, v.lower);
        } else {
            let _ = writeln!(out, " {} <= {} <= {}", v.lower, v.name, v.upper);
        }
    }
    if need_zero {
        let _ = writeln!(out, " {ZERO} = 0");
    }
    let generals: Vec<&str> = model
        .vars
        .iter()
        .filter(|v| !binary(v))
        .map(|v| v.name.as_str())
        .chain(need_zero.then_some(ZERO))
        .collect();
    write_section(&mut out, "Generals", &generals);
    let binaries: Vec<&str> = model
        .vars
        .iter()
        .filter(|v| binary(v))
        .map(|v| v.name.as_str())
        .collect();
    write_section(&mut out, "Binaries", &binaries);
    out.push_str("End\n");
    out
}

fn write_terms(out: &mut String, model: &LinearModel, terms: &[Term]) {
    for (i, t) in terms.iter().enumerate() {
        if i > 0 && i % TERMS_PER_LINE == 0 {
            out.push_str("\n   ");
        }
        let name = &model.vars[t.var].name;
        let sign = if t.coef < 0 { '-' } else { '+' };
        match (i, t.coef.abs()) {
            (0, 1) if t.coef > 0 => {
                let _ = write!(out, " {name}");
            }
            (0, a) if t.coef > 0 => {
                let _ = write!(out, " {a} {name}");
            }
            (_, 1) => {
                let _ = write!(out, " {sign} {name}");
            }
            (_, a) => {
                let _ = write!(out, " {sign} {a} {name}");
            }
        }
    }
}

fn write_section(out: &mut String, title: &str, names: &[&str]) {
    if names.is_empty() {
        return;
    }
    let _ = writeln!(out, "{title}");
    for chunk in names.chunks(TERMS_PER_LINE) {
        let _ = writeln!(out, " {}", chunk.join(" "));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::ilp::{IlpModel, LinearConstraint, VarDef, VarRole};
    use crate::model::puzzle::Pos;

    #[test]
    fn writes_each_section() {
        let var = |name: &str, lower, upper| VarDef {
            name: name.into(),
            lower,
            upper,
            role: VarRole::Cell(Pos::new(0, 0)),
        };
        let mut m = LinearModel::new(IlpModel::Cell, 1, 2);
        m.vars = vec![var("a", 0, 1), var("b", 1, 1)];
        m.primary = vec![0, 1];
        m.constraints = vec![
            LinearConstraint {
                name: "c1".into(),
                terms: vec![Term { var: 0, coef: 1 }, Term { var: 1, coef: -2 }],
                sense: Sense::Ge,
                rhs: -1,
            },
            LinearConstraint {
                name: "c2".into(),
                terms: vec![],
                sense: Sense::Eq,
                rhs: 0,
            },
        ];
        let text = write(&m, &["hello".into()]);
        let expected = "\\ hello\n\\ cell model: 2 variables, 2 constraints\nMinimize\n obj: a + b\n\
            Subject To\n c1: a - 2 b >= -1\n c2: 0 zero = 0\nBounds\n b = 1\n zero = 0\n\
            Generals\n b zero\nBinaries\n a\nEnd\n";
        assert_eq!(text, expected);
    }
}
