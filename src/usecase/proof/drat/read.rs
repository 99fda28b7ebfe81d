//! Reading a proof, text or binary DRAT, step by step.

use super::cnf::*;

/// One proof step.
pub(super) enum ProofItem {
    Add(Vec<DimacsLit>),
    Delete(Vec<DimacsLit>),
}

impl ProofItem {
    pub(super) fn new(delete: bool, clause: Vec<DimacsLit>) -> Self {
        if delete {
            ProofItem::Delete(clause)
        } else {
            ProofItem::Add(clause)
        }
    }
}

/// Whether `proof` is binary DRAT: text DRAT never holds a 0 byte, binary DRAT ends every
/// clause with one.
pub(crate) fn is_binary(proof: &[u8]) -> bool {
    proof.contains(&0)
}

pub(super) fn read_text(
    proof: &[u8],
    step: &mut impl FnMut(Step, ProofItem) -> Result<(), DratError>,
) -> Result<(), DratError> {
    let text = std::str::from_utf8(proof).map_err(|e| DratError::Syntax {
        at: Step::Line(proof[..e.valid_up_to()].split(|&b| b == b'\n').count()),
        message: "not text (and no 0 byte, so not binary DRAT either)".into(),
    })?;
    for (i, line) in text.lines().enumerate() {
        let at = Step::Line(i + 1);
        let mut words = line.split_whitespace().peekable();
        let delete = match words.peek() {
            None => continue,
            Some(w) if w.starts_with('c') => continue,
            Some(&"d") => {
                words.next();
                true
            }
            Some(_) => false,
        };
        let mut clause = Vec::new();
        let mut ended = false;
        for word in words {
            if ended {
                return Err(DratError::Syntax {
                    at,
                    message: format!("`{word}` after the 0 that ends the clause"),
                });
            }
            let lit: DimacsLit = word.parse().map_err(|_| DratError::Syntax {
                at,
                message: format!("`{word}` is not a literal"),
            })?;
            if lit == 0 {
                ended = true;
            } else {
                clause.push(lit);
            }
        }
        if !ended {
            return Err(DratError::Syntax {
                at,
                message: "the clause does not end with 0".into(),
            });
        }
        step(at, ProofItem::new(delete, clause))?;
    }
    Ok(())
}

pub(super) fn read_binary(
    proof: &[u8],
    step: &mut impl FnMut(Step, ProofItem) -> Result<(), DratError>,
) -> Result<(), DratError> {
    let mut bytes = proof.iter().copied();
    let mut number = 0;
    while let Some(kind) = bytes.next() {
        number += 1;
        let at = Step::Binary(number);
        let delete = match kind {
            b'a' => false,
            b'd' => true,
            other => {
                return Err(DratError::Syntax {
                    at,
                    message: format!("byte {other:#04x} where `a` or `d` starts a step"),
                });
            }
        };
        let mut clause = Vec::new();
        loop {
            let mut code: u64 = 0;
            let mut shift = 0;
            loop {
                let Some(byte) = bytes.next() else {
                    return Err(DratError::Syntax {
                        at,
                        message: "the proof ends inside a clause".into(),
                    });
                };
                if shift > 35 {
                    return Err(DratError::Syntax {
                        at,
                        message: "a literal too large".into(),
                    });
                }
                code |= u64::from(byte & 0x7f) << shift;
                shift += 7;
                if byte & 0x80 == 0 {
                    break;
                }
            }
            if code == 0 {
                break;
            }
            let var = DimacsLit::try_from(code >> 1).map_err(|_| DratError::Syntax {
                at,
                message: "a literal too large".into(),
            })?;
            if var == 0 {
                return Err(DratError::Syntax {
                    at,
                    message: "literal code 1 names no variable".into(),
                });
            }
            clause.push(if code & 1 == 1 { -var } else { var });
        }
        step(at, ProofItem::new(delete, clause))?;
    }
    Ok(())
}
