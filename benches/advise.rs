//! The shot advisor in-process: one Rowan data set (parse and answer), the exact posterior of
//! a mid-game board, and one self-play game.

use bimaru_sat::usecase::advise::posterior::{self, Options, PosteriorMethod};
use bimaru_sat::usecase::advise::simulate::{self, SimOptions, Strategy};
use bimaru_sat::usecase::advise::{contest, rowan};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// Section 1.1 of the specification (hunting) and section 1.3 (four hits, two strings).
const HUNT: &str = "1\n4\nA D S P\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n\
0 0 0 0 0 0 0 0 0 0\n0 0 0 0 1 0 0 0 0 0\n0 0 0 1 0 1 0 0 0 0\n0 0 0 0 3 1 0 0 0 0\n\
0 0 0 0 3 0 0 0 0 0\n0 0 0 0 3 0 0 0 0 0\n0 0 0 0 3 0 0 0 0 0\n";
const TARGET: &str = "1\n5\nA B D S P\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n\
0 0 0 0 0 0 0 0 0 0\n0 0 0 1 0 0 0 0 0 0\n0 0 0 2 1 0 0 0 0 0\n0 0 0 2 0 1 0 0 0 0\n\
0 0 0 2 2 0 0 0 0 0\n0 0 0 1 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n";

fn rowan_data_set(c: &mut Criterion) {
    for (name, text) in [("hunt", HUNT), ("target", TARGET)] {
        c.bench_function(
            &format!("rowan/{name}: parse and advise one data set"),
            |b| {
                b.iter(|| {
                    let contest = contest::parse(black_box(text)).expect("valid");
                    let advice: Vec<_> = contest.data_sets.iter().map(rowan::advise).collect();
                    black_box(contest::write_report(&advice))
                })
            },
        );
    }
}

fn posterior_mid_game(c: &mut Criterion) {
    let pos = contest::parse(HUNT).expect("valid").data_sets.remove(0);
    let opts = Options {
        method: PosteriorMethod::Exact,
        ..Options::default()
    };
    let mut g = c.benchmark_group("posterior");
    g.sample_size(10);
    g.bench_function("exact, four ships afloat (section 1.1)", |b| {
        b.iter(|| posterior::posterior(black_box(&pos), &opts).expect("consistent"))
    });
    g.finish();
}

fn one_game(c: &mut Criterion) {
    let opts = SimOptions {
        strategy: Strategy::Rowan,
        ..SimOptions::default()
    };
    let mut i = 0u64;
    c.bench_function("simulate/rowan: one game", |b| {
        b.iter(|| {
            i += 1;
            let mut rng = simulate::game_rng(1, i);
            let fleet = simulate::draw_fleet(opts.rule, &mut rng);
            black_box(simulate::play(&opts, &fleet, &mut rng))
        })
    });
}

criterion_group!(benches, rowan_data_set, posterior_mid_game, one_game);
criterion_main!(benches);
