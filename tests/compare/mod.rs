//! `bimaru-sat compare`: the table over the public IST instances, the JSON form, and a planted
//! faulty configuration that must be reported as a disagreement (the command then exits 1).

use crate::common::{files, read, run, shared};
use bimaru_sat::encode::ilp::{IlpEngine, IlpModel, IlpSolver};
use bimaru_sat::encode::sat::card::CardKind;
use bimaru_sat::encode::sat::model::Model;
use bimaru_sat::model::deadline::Budget;
use bimaru_sat::solver::SolverKind;
use bimaru_sat::usecase::compare::{Config, NamedPuzzle, all_options, compare};
use bimaru_sat::usecase::solve::{Engine, SolveError, Stats};
use bimaru_sat::{Backend, Grid, Pos, SolveOptions, format::ist};
use strum::VariantArray;

fn public_puzzles() -> Vec<NamedPuzzle> {
    let Some(dir) = shared("corpus/ist-bimaru/public") else {
        return Vec::new();
    };
    files(&dir, ".txt")
        .into_iter()
        .map(|path| NamedPuzzle {
            name: path.display().to_string(),
            puzzle: ist::parse(&String::from_utf8_lossy(&read(&path))).unwrap(),
        })
        .collect()
}

#[cfg_attr(
    no_shared,
    ignore = "needs ../shared, missing when this test was built"
)]
#[test]
fn compare_over_the_public_instances_prints_the_table_and_exits_zero() {
    let Some(dir) = shared("corpus/ist-bimaru/public") else {
        return;
    };
    let out = run(&["compare", dir.to_str().unwrap()], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("median ms") && text.contains("constraints"));
    assert!(text.lines().nth(2).is_some_and(|l| l.contains(" solver ")));
    for options in all_options() {
        // The configuration, then the solver in a column of its own.
        let (name, solver) = match options.backend {
            Backend::Sat => (
                format!("sat/{}/{}", options.model, options.card),
                options.solver.to_string(),
            ),
            _ => (
                format!("ilp/{}", options.ilp_model),
                options.ilp_solver.to_string(),
            ),
        };
        let row = text
            .lines()
            .find(|l| {
                let mut words = l.split_whitespace();
                words.next() == Some(name.as_str()) && words.next() == Some(solver.as_str())
            })
            .unwrap_or_else(|| panic!("no row for {name} with {solver} in\n{text}"));
        assert!(row.contains("10/10"), "{row}");
    }
    assert!(text.contains("all configurations agree"));

    let out = run(
        &[
            "compare",
            "--json",
            "--backend",
            "ilp",
            dir.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let puzzles = json["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 10);
    for p in puzzles {
        assert_eq!(p["reference"], "unique");
        assert!(
            p["runs"]
                .as_array()
                .unwrap()
                .iter()
                .all(|r| r["agrees"] == true)
        );
    }
    assert!(
        json["configs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["name"].as_str().unwrap().starts_with("ilp/"))
    );
}

#[test]
fn every_model_encoding_and_linked_solver_is_a_configuration() {
    let all = all_options();
    for &model in Model::VARIANTS {
        for &card in CardKind::VARIANTS {
            for &solver in SolverKind::VARIANTS {
                let present = all.iter().any(|o| {
                    o.backend == Backend::Sat
                        && o.model == model
                        && o.card == card
                        && o.solver == solver
                });
                assert_eq!(
                    present,
                    solver.is_available(),
                    "{model:?} {card:?} {solver:?}"
                );
            }
        }
    }
    for &model in IlpModel::VARIANTS {
        for &solver in IlpSolver::VARIANTS {
            let present = all.iter().any(|o| {
                o.backend == Backend::Ilp && o.ilp_model == model && o.ilp_solver == solver
            });
            assert_eq!(present, solver.is_available(), "{model:?} {solver:?}");
        }
    }
}

/// A wrong decoder: the ILP engine's grids come back mirrored left to right.
struct Mirrored(IlpEngine);

impl Engine for Mirrored {
    fn next_solution(&mut self) -> Result<Option<Grid>, SolveError> {
        Ok(self.0.next_solution()?.map(|g| {
            let mut m = Grid::water(g.rows(), g.cols());
            for r in 0..g.rows() {
                for c in 0..g.cols() {
                    m.set(Pos::new(r, g.cols() - 1 - c), g.get(Pos::new(r, c)));
                }
            }
            m
        }))
    }
    fn stats(&self) -> Stats {
        self.0.stats()
    }
}

/// A decoder that loses every model: it claims there is no solution.
struct Forgetful(IlpEngine);

impl Engine for Forgetful {
    fn next_solution(&mut self) -> Result<Option<Grid>, SolveError> {
        self.0.next_solution()?;
        Ok(None)
    }
    fn stats(&self) -> Stats {
        self.0.stats()
    }
}

/// Wraps an honest engine into a faulty one.
type Plant = fn(IlpEngine) -> Box<dyn Engine>;

#[test]
fn a_planted_wrong_decoder_is_a_disagreement() {
    let puzzles = public_puzzles();
    if puzzles.is_empty() {
        return;
    }
    let honest = || {
        vec![
            Config::from_options(SolveOptions::unique()),
            Config::from_options(SolveOptions {
                backend: Backend::Ilp,
                ..SolveOptions::unique()
            }),
        ]
    };
    let clean = compare(&puzzles, &honest(), 2, 1, &Budget::default(), &mut || {});
    assert!(clean.agrees());

    let plants: [(&str, Plant); 2] = [
        ("mirrored", |e| Box::new(Mirrored(e))),
        ("forgetful", |e| Box::new(Forgetful(e))),
    ];
    for (name, wrap) in plants {
        let mut configs = honest();
        configs.push(Config::custom(name, Backend::Ilp, move |puzzle| {
            wrap(IlpEngine::new(puzzle, IlpModel::Ship, IlpSolver::Microlp))
        }));
        let mut steps = 0;
        let result = compare(&puzzles, &configs, 2, 1, &Budget::default(), &mut || {
            steps += 1
        });
        assert_eq!(steps, puzzles.len() * 3);
        assert!(!result.agrees(), "{name}");
        // Every puzzle is affected (none is symmetric), and only the planted row disagrees.
        assert_eq!(result.disagreements().len(), puzzles.len(), "{name}");
        let planted = &result.configs[2];
        assert_eq!(planted.agree, 0, "{name}");
        assert!(result.configs[..2].iter().all(|c| c.agree == puzzles.len()));
        let table = result.table();
        assert!(
            table.contains("disagreements") && table.contains(name),
            "{table}"
        );
    }
}

#[test]
fn a_run_out_of_time_is_a_timeout_neither_solved_nor_agreeing() {
    // A dense solbat board: no configuration proves uniqueness within a millisecond.
    let Some(board) = shared("corpus/minizinc-solbat/sb_15_15_7_0.dzn") else {
        return;
    };
    let out = run(
        &[
            "compare",
            "--json",
            "--time-limit",
            "0.001",
            board.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let runs = json["puzzles"][0]["runs"].as_array().unwrap();
    assert_eq!(runs.len(), all_options().len());
    for run in runs {
        assert_eq!(run["verdict"], "timeout", "{run}");
        assert_eq!(run["agrees"], false, "{run}");
    }
    for config in json["configs"].as_array().unwrap() {
        assert_eq!(config["solved"], 0, "{config}");
    }
    // With time enough, every configuration decides the IST boards and agrees.
    let ist = shared("corpus/ist-bimaru/public").unwrap();
    let out = run(
        &[
            "compare",
            "--first",
            "2",
            "--time-limit",
            "60",
            ist.to_str().unwrap(),
        ],
        b"",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("all configurations agree"), "{text}");
}
