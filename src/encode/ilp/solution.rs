//! Reading external MIP solvers' answers to an exported LP file: CBC's solution file (`cbc
//! model.lp solve solu FILE`) and glpsol's printed report (`glpsol --lp model.lp -o FILE`). The
//! values are matched to a rebuilt [`LinearModel`] by variable name, so the caller can decode and
//! verify the grid.

use super::{IlpModel, LinearModel};
use crate::format::{Found, ParseError, ParseErrorKind};

/// Which solver wrote the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolutionFormat {
    /// CBC's `solu` file: a status line, then `index name value reduced-cost` per variable.
    Cbc,
    /// glpsol's `-o` report: `Status:` line and a column table.
    Glpsol,
}

/// What the solver says about the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolutionStatus {
    /// An optimal (hence feasible) integer point.
    Optimal,
    /// The program has no integer point.
    Infeasible,
    /// The solver stopped early; the values, if any, are its best point.
    Stopped,
}

/// One variable value read from the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    /// Line where it was read (1-based).
    pub line: usize,
    /// Variable name.
    pub name: String,
    /// Value as printed.
    pub value: f64,
}

/// A parsed solution file.
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalSolution {
    /// Which solver wrote it.
    pub format: SolutionFormat,
    /// The solver's verdict.
    pub status: SolutionStatus,
    /// Values by variable, in file order (CBC lists only the nonzero ones).
    pub values: Vec<Value>,
}

fn expected(line: usize, what: &'static str, found: &str) -> ParseError {
    ParseError::at_line(
        line,
        ParseErrorKind::Expected {
            expected: what,
            found: Found::new(found),
        },
    )
}

/// Parses a CBC solution file or a glpsol report, telling them apart by their first lines.
pub fn parse(text: &str) -> Result<ExternalSolution, ParseError> {
    if text.lines().any(|l| l.trim_start().starts_with("Status:")) {
        parse_glpsol(text)
    } else {
        parse_cbc(text)
    }
}

fn parse_cbc(text: &str) -> Result<ExternalSolution, ParseError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let Some((first, status_line)) = lines.next() else {
        return Err(ParseError::at_line(
            0,
            ParseErrorKind::UnexpectedEnd {
                expected: "a CBC solution status line",
            },
        ));
    };
    let lower = status_line.to_ascii_lowercase();
    let status = if lower.contains("infeasible") {
        SolutionStatus::Infeasible
    } else if lower.starts_with("optimal") {
        SolutionStatus::Optimal
    } else if lower.starts_with("stopped") {
        SolutionStatus::Stopped
    } else {
        return Err(expected(
            first,
            "a CBC status line (Optimal, Infeasible, Stopped ...) or a glpsol report",
            status_line,
        ));
    };
    let mut values = Vec::new();
    for (line, text) in lines {
        // `**` marks a value that breaks a bound in CBC's output; it precedes the index.
        let mut tokens = text.split_whitespace().filter(|t| *t != "**");
        let (Some(index), Some(name), Some(value)) = (tokens.next(), tokens.next(), tokens.next())
        else {
            return Err(expected(line, "`index name value reduced-cost`", text));
        };
        if index.parse::<usize>().is_err() {
            return Err(expected(line, "a variable index", index));
        }
        let value = value
            .parse::<f64>()
            .map_err(|_| expected(line, "a number", value))?;
        values.push(Value {
            line,
            name: name.to_string(),
            value,
        });
    }
    Ok(ExternalSolution {
        format: SolutionFormat::Cbc,
        status,
        values,
    })
}

fn parse_glpsol(text: &str) -> Result<ExternalSolution, ParseError> {
    let lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect();
    let mut status = None;
    let mut table_start = None;
    for (i, &(line, l)) in lines.iter().enumerate() {
        let t = l.trim();
        if let Some(rest) = t.strip_prefix("Status:") {
            let rest = rest.trim();
            status = Some(match rest {
                "INTEGER OPTIMAL" | "OPTIMAL" => SolutionStatus::Optimal,
                "INTEGER EMPTY" | "INFEASIBLE (FINAL)" | "EMPTY" => SolutionStatus::Infeasible,
                "INTEGER NON-OPTIMAL" | "INTEGER UNDEFINED" | "UNDEFINED" => {
                    SolutionStatus::Stopped
                }
                _ => return Err(expected(line, "a glpsol status", rest)),
            });
        }
        if t.starts_with("No.") && t.contains("Column name") {
            // The table starts after the dashed rule below the header.
            table_start = Some(i + 2);
        }
    }
    let status = status.ok_or_else(|| expected(0, "a glpsol `Status:` line", ""))?;
    let mut values = Vec::new();
    let Some(start) = table_start else {
        return Ok(ExternalSolution {
            format: SolutionFormat::Glpsol,
            status,
            values,
        });
    };
    let mut i = start;
    while i < lines.len() {
        let (line, text) = lines[i];
        let tokens: Vec<&str> = text.split_whitespace().collect();
        if tokens.is_empty() || tokens[0].parse::<usize>().is_err() {
            break; // the table ends at a blank line or the closing remarks
        }
        let Some(&name) = tokens.get(1) else {
            return Err(expected(line, "a column name after its number", text));
        };
        // A long name stands alone; its numbers follow on the next line.
        let numbers: Vec<&str> = if tokens.len() == 2 {
            i += 1;
            lines
                .get(i)
                .map(|(_, l)| l.split_whitespace().collect())
                .unwrap_or_default()
        } else {
            tokens[2..].to_vec()
        };
        let activity = numbers
            .iter()
            .find(|t| **t != "*")
            .ok_or_else(|| expected(line, "a column activity", text))?;
        let value = activity
            .parse::<f64>()
            .map_err(|_| expected(line, "a number", activity))?;
        values.push(Value {
            line,
            name: name.to_string(),
            value,
        });
        i += 1;
    }
    Ok(ExternalSolution {
        format: SolutionFormat::Glpsol,
        status,
        values,
    })
}

impl ExternalSolution {
    /// The model the variable names belong to: `x_` names are the ship model's, `y_`/`z_` the
    /// cell model's. `None` when no value names a variable of either (an empty solution).
    pub(crate) fn model(&self) -> Option<IlpModel> {
        self.values.iter().find_map(|v| match v.name.get(..2) {
            Some("x_") => Some(IlpModel::Ship),
            Some("y_" | "z_") => Some(IlpModel::Cell),
            _ => None,
        })
    }

    /// Integer values for `model`'s variables (absent ones are 0). A name the model does not
    /// have, or a value that is not an integer within the variable's bounds, is an error.
    pub fn values_for(&self, model: &LinearModel) -> Result<Vec<i64>, ParseError> {
        let index = model.var_index();
        let mut values = vec![0; model.vars.len()];
        for v in &self.values {
            if v.name == super::lp::ZERO {
                continue;
            }
            let &i = index.get(v.name.as_str()).ok_or_else(|| {
                expected(
                    v.line,
                    "a variable of the model built from the puzzle",
                    &v.name,
                )
            })?;
            let rounded = v.value.round();
            let var = &model.vars[i];
            if (v.value - rounded).abs() > 1e-6
                || rounded < var.lower as f64
                || rounded > var.upper as f64
            {
                return Err(expected(
                    v.line,
                    "an integer value within the variable's bounds",
                    &v.value.to_string(),
                ));
            }
            values[i] = rounded as i64;
        }
        Ok(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cbc_output() {
        let text = "Optimal - objective value 2.00000000\n      0 x_1h_0_0   1   0\n      \
                    5 x_2v_1_1   1   0\n";
        let s = parse(text).unwrap();
        assert_eq!(s.format, SolutionFormat::Cbc);
        assert_eq!(s.status, SolutionStatus::Optimal);
        assert_eq!(s.values.len(), 2);
        assert_eq!(s.values[1].name, "x_2v_1_1");
        assert_eq!(s.model(), Some(IlpModel::Ship));
        let bad = parse("Optimal - objective value 2\n 0 x_1h_0_0 one 0\n").unwrap_err();
        assert_eq!(bad.line, 2);
        assert!(
            parse("Infeasible - objective value 0\n").unwrap().status == SolutionStatus::Infeasible
        );
        assert!(parse("hello\n").is_err());
    }

    #[test]
    fn reads_glpsol_report() {
        let text = "Problem:    \nRows:       3\nColumns:    2 (2 integer, 2 binary)\n\
            Status:     INTEGER OPTIMAL\nObjective:  obj = 1 (MINimum)\n\n\
            \x20  No.   Row name        Activity     Lower bound   Upper bound\n\
            ------ ------------    ------------- ------------- -------------\n\
            \x20    1 row_0                      1             1             =\n\n\
            \x20  No. Column name       Activity     Lower bound   Upper bound\n\
            ------ ------------    ------------- ------------- -------------\n\
            \x20    1 y_0_0        *              1             0             1\n\
            \x20    2 z_a_very_long_name_indeed\n\
            \x20                   *              0             0             1\n\n\
            Integer feasibility conditions:\n";
        let s = parse(text).unwrap();
        assert_eq!(s.format, SolutionFormat::Glpsol);
        assert_eq!(s.status, SolutionStatus::Optimal);
        let names: Vec<_> = s
            .values
            .iter()
            .map(|v| (v.name.as_str(), v.value))
            .collect();
        assert_eq!(
            names,
            vec![("y_0_0", 1.0), ("z_a_very_long_name_indeed", 0.0)]
        );
        assert_eq!(s.model(), Some(IlpModel::Cell));
    }
}
