//! `POST /api/advise`: the next shot in a two-player Battleship game and the heat map. The
//! position comes as a JSON game record (`{"size": 10, "fleet": [...], "shots": [...]}`,
//! [`GameRecord`]), as `{"contest": "..."}` with Rowan contest text (one data set), or as the
//! contest text itself for the body; `strategy`, `seed` and `salvo` (the number of squares to
//! answer, for the Salvo variant) ride beside it in the JSON or in the query string. Bad
//! positions and salvo sizes get 422 naming the problem.

use super::api::{Request, choice, cut_off};
use super::limits::{ApiError, WorkDeadline};
use axum::Json;
use axum::http::Uri;
use axum::response::{IntoResponse, Response};
use bimaru_sat::usecase::advise::board::{SIZE, Square};
use bimaru_sat::usecase::advise::game::{GameRecord, advise_shot};
use bimaru_sat::usecase::advise::posterior::Used;
use bimaru_sat::usecase::advise::simulate::Strategy;
use bimaru_sat::usecase::advise::{Position, contest};
use bimaru_sat::usecase::error::Error;
use bimaru_sat::usecase::json::Status;
use serde::{Deserialize, Serialize};

/// The request's options (every one has a default).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct AdviseQuery {
    strategy: Option<String>,
    seed: Option<u64>,
    salvo: Option<usize>,
}

/// The JSON form: a game record or contest text, and the options.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AdviseBody {
    #[serde(default)]
    contest: Option<String>,
    #[serde(default)]
    size: Option<usize>,
    #[serde(default)]
    fleet: Option<Vec<String>>,
    #[serde(default)]
    shots: Option<Vec<bimaru_sat::usecase::advise::game::ShotRecord>>,
    #[serde(default)]
    strategy: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    salvo: Option<usize>,
}

/// A read request: the position (or why there is none) and the options.
pub struct AdviseRequest {
    position: Result<Position, ApiError>,
    strategy: Strategy,
    seed: u64,
    /// The squares asked for; `None` answers the one shot without a `salvo` field.
    salvo: Option<usize>,
}

fn unprocessable(message: String) -> ApiError {
    ApiError::unprocessable(Status::Error, message)
}

fn contest_position(text: &str) -> Result<Position, ApiError> {
    let mut parsed =
        contest::parse(text).map_err(|e| unprocessable(format!("contest text: {e}")))?;
    if parsed.data_sets.len() != 1 {
        return Err(unprocessable(format!(
            "contest text holds {} data sets; this route takes one",
            parsed.data_sets.len()
        )));
    }
    Ok(parsed.data_sets.remove(0))
}

fn strategy(name: Option<&str>) -> Result<Strategy, ApiError> {
    choice("strategy", name, Strategy::Posterior)
}

impl Request for AdviseRequest {
    fn read(uri: &Uri, bytes: &[u8]) -> Result<Self, ApiError> {
        let q: AdviseQuery = axum::extract::Query::<AdviseQuery>::try_from_uri(uri)
            .map(|q| q.0)
            .map_err(|e| ApiError::bad_input(e.body_text()))?;
        let trimmed = bytes.trim_ascii_start();
        if trimmed.starts_with(b"{") {
            let body: AdviseBody = serde_json::from_slice(bytes).map_err(|e| {
                if e.is_eof() {
                    ApiError::bad_input(cut_off(&e))
                } else if e.is_data() {
                    unprocessable(format!("request: {e}"))
                } else {
                    ApiError::bad_input(format!("request: {e}"))
                }
            })?;
            let position = match body.contest {
                Some(text) => contest_position(&text),
                None => GameRecord {
                    size: body.size.unwrap_or(SIZE),
                    fleet: body
                        .fleet
                        .unwrap_or_else(|| ["A", "B", "D", "S", "P"].map(String::from).to_vec()),
                    shots: body.shots.unwrap_or_default(),
                }
                .position()
                .map_err(|e| ApiError::from(Error::from(e))),
            };
            return Ok(AdviseRequest {
                position,
                strategy: strategy(body.strategy.as_deref().or(q.strategy.as_deref()))?,
                seed: body.seed.or(q.seed).unwrap_or(1),
                salvo: body.salvo.or(q.salvo),
            });
        }
        let text = std::str::from_utf8(bytes)
            .map_err(|_| ApiError::bad_input("the body is not UTF-8 text".into()))?;
        Ok(AdviseRequest {
            position: contest_position(text),
            strategy: strategy(q.strategy.as_deref())?,
            seed: q.seed.unwrap_or(1),
            salvo: q.salvo,
        })
    }

    fn small(&self) -> bool {
        true
    }
}

/// The answer.
#[derive(Serialize)]
struct AdviseAnswer {
    status: &'static str,
    /// The strategy's square.
    shot: String,
    /// The salvo's squares in the order they were picked, `shot` first (when asked for).
    #[serde(skip_serializing_if = "Option::is_none")]
    salvo: Option<Vec<String>>,
    /// The squares with the highest probability.
    best: Vec<String>,
    strategy: &'static str,
    /// `exact` or `weighted`.
    method: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    configurations: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    samples: Option<u64>,
    seed: u64,
    /// The ships afloat.
    afloat: Vec<String>,
    /// Each square's probability, row by row.
    probabilities: Vec<Vec<f64>>,
}

/// `POST /api/advise`.
pub fn advise(request: AdviseRequest, deadline: WorkDeadline) -> Result<Response, ApiError> {
    let pos = request.position?;
    let k = request.salvo.unwrap_or(1);
    let advice = advise_shot(&pos, request.strategy, request.seed, k, deadline.library())
        .map_err(|e| deadline.fail(e))?;
    let (method, configurations, samples) = match advice.posterior.used {
        Used::Exact { configurations } => ("exact", Some(configurations.to_string()), None),
        Used::Weighted { samples, .. } => ("weighted", None, Some(samples)),
        _ => ("sampled", None, None),
    };
    let round = |p: f64| (p * 1e6).round() / 1e6;
    let answer = AdviseAnswer {
        status: "ok",
        shot: advice.shot.to_string(),
        salvo: request
            .salvo
            .map(|_| advice.salvo.iter().map(Square::to_string).collect()),
        best: advice.best.iter().map(Square::to_string).collect(),
        strategy: request.strategy.into(),
        method,
        configurations,
        samples,
        seed: request.seed,
        afloat: pos.ships.iter().map(|s| s.letter().to_string()).collect(),
        probabilities: (0..SIZE)
            .map(|r| {
                (0..SIZE)
                    .map(|c| round(advice.posterior.probabilities[r * SIZE + c]))
                    .collect()
            })
            .collect(),
    };
    Ok(Json(answer).into_response())
}

#[cfg(test)]
mod tests {
    use super::super::{ServerLimits, router};
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use http_body_util::BodyExt;
    use serde_json::{Value, json};
    use tower::ServiceExt;

    /// Every strategy the route takes.
    const STRATEGIES: [&str; 6] = [
        "beginner",
        "hunter",
        "rowan",
        "density",
        "posterior",
        "tuned",
    ];

    async fn post(body: impl Into<Vec<u8>>) -> (StatusCode, Value) {
        post_to("/api/advise", body).await
    }

    async fn post_to(uri: &str, body: impl Into<Vec<u8>>) -> (StatusCode, Value) {
        let request = Request::post(uri)
            .body(Body::from(body.into()))
            .expect("a request");
        let response = router(ServerLimits::default())
            .oneshot(request)
            .await
            .expect("an answer");
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("a body")
            .to_bytes();
        (status, serde_json::from_slice(&bytes).expect("JSON"))
    }

    async fn post_json(body: Value) -> (StatusCode, Value) {
        post(body.to_string()).await
    }

    #[tokio::test]
    async fn a_game_record_gets_a_shot_and_a_heat_map_the_same_every_time() {
        let record = json!({"size": 10, "fleet": ["A", "B", "D", "S", "P"], "shots": [
            {"at": "E5", "result": "miss"}, {"at": "C3", "result": "hit"}]});
        let (status, first) = post_json(record.clone()).await;
        assert_eq!(status, StatusCode::OK, "{first}");
        let (_, second) = post_json(record).await;
        assert_eq!(first, second);
        let rows = first["probabilities"].as_array().expect("rows");
        assert_eq!(rows.len(), 10);
        let total: f64 = rows
            .iter()
            .flat_map(|r| r.as_array().expect("a row"))
            .map(|p| p.as_f64().expect("a number"))
            .sum();
        assert!((total - 17.0).abs() < 1e-3, "{total}");
        // A hit with every ship afloat: the shot goes next to it.
        let shot = first["shot"].as_str().expect("a shot");
        assert!(["C2", "B3", "D3", "C4"].contains(&shot), "{shot}");
        assert_eq!(rows[4][4], json!(0.0), "E5 was a miss");
    }

    #[tokio::test]
    async fn contest_text_and_every_strategy_are_taken() {
        // D and P afloat: A, B and S sunk along rows 1, 3 and 5.
        let mut text = String::from("1\n2\nD P\n");
        for row in 0..10 {
            text.push_str(match row {
                0 => "3 3 3 3 3 0 0 0 0 0\n",
                2 => "3 3 3 3 0 0 0 0 0 0\n",
                4 => "3 3 3 0 0 0 0 0 0 0\n",
                _ => "0 0 0 0 0 0 0 0 0 0\n",
            });
        }
        let (status, answer) = post(text.clone()).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["method"], json!("exact"));
        assert_eq!(answer["afloat"], json!(["D", "P"]));
        for strategy in STRATEGIES {
            let (status, answer) = post_json(json!({"contest": text, "strategy": strategy})).await;
            assert_eq!(status, StatusCode::OK, "{answer}");
            assert_eq!(answer["strategy"], json!(strategy));
        }
        let (status, answer) = post_json(json!({"contest": text, "strategy": "psychic"})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    }

    #[tokio::test]
    async fn a_salvo_answers_k_distinct_squares_led_by_the_shot() {
        let shots = json!([{"at": "E5", "result": "hit"}, {"at": "A1", "result": "miss"}]);
        for strategy in STRATEGIES {
            let (_, one) = post_json(json!({"shots": shots, "strategy": strategy})).await;
            assert!(one.get("salvo").is_none(), "{one}");
            let (status, five) =
                post_json(json!({"shots": shots, "strategy": strategy, "salvo": 5})).await;
            assert_eq!(status, StatusCode::OK, "{five}");
            let salvo: Vec<&str> = five["salvo"]
                .as_array()
                .expect("a salvo")
                .iter()
                .map(|s| s.as_str().expect("a square"))
                .collect();
            assert_eq!(salvo.len(), 5, "{strategy}: {five}");
            assert_eq!(salvo[0], one["shot"], "{strategy}: the single shot leads");
            assert_eq!(five["shot"], one["shot"], "{strategy}");
            let mut distinct = salvo.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), 5, "{strategy}: {salvo:?}");
            assert!(
                !salvo.contains(&"E5") && !salvo.contains(&"A1"),
                "{salvo:?}"
            );
            // The same request answers the same salvo.
            let (_, again) =
                post_json(json!({"shots": shots, "strategy": strategy, "salvo": 5})).await;
            assert_eq!(again, five);
        }
        // In the query string, for contest text too.
        let mut text = String::from("1\n5\nA B D S P\n");
        text.push_str(&"0 0 0 0 0 0 0 0 0 0\n".repeat(10));
        let (status, answer) = post_to("/api/advise?salvo=3&strategy=tuned", text).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(
            answer["salvo"].as_array().map(Vec::len),
            Some(3),
            "{answer}"
        );
    }

    #[tokio::test]
    async fn bad_salvo_sizes_get_422_naming_the_problem() {
        // The PT boat alone afloat and every square but three missed: H10 to J10 are left.
        let misses: Vec<Value> = (1..=10)
            .flat_map(|row| "ABCDEFGHIJ".chars().map(move |col| format!("{col}{row}")))
            .filter(|name| !["H10", "I10", "J10"].contains(&name.as_str()))
            .map(|name| json!({"at": name, "result": "miss"}))
            .collect();
        for (body, words) in [
            (
                json!({"salvo": 0}),
                "0 shots asked for; a salvo fires at least 1",
            ),
            (
                json!({"salvo": 11}),
                "11 shots asked for; a salvo fires at most 10",
            ),
            (json!({"salvo": -1}), "request: invalid value"),
            (
                json!({"fleet": ["P"], "shots": misses, "salvo": 4}),
                "4 shots asked for, but only 3 squares are left to shoot",
            ),
        ] {
            let (status, answer) = post_json(body.clone()).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {answer}");
            let message = answer["error"].as_str().expect("a message");
            assert!(message.contains(words), "{body}: {message}");
        }
        let (status, answer) =
            post_json(json!({"fleet": ["P"], "shots": misses, "salvo": 3})).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        // The boat lies on H10-I10 or I10-J10: I10 holds it for certain and leads.
        assert_eq!(answer["salvo"], json!(["I10", "H10", "J10"]));
    }

    #[tokio::test]
    async fn bad_positions_get_422_naming_the_problem() {
        let hits = |n: usize| -> Vec<Value> {
            (1..=n)
                .map(|r| json!({"at": format!("A{r}"), "result": "hit"}))
                .collect()
        };
        for (record, words) in [
            (
                json!({"shots": [{"at": "K11", "result": "miss"}]}),
                "\"K11\" is off the 10x10 board",
            ),
            (
                json!({"shots": [{"at": "A0", "result": "miss"}]}),
                "\"A0\" is off the 10x10 board",
            ),
            (
                json!({"fleet": ["P", "D"], "shots": hits(6)}),
                "6 hits on ships afloat, but the ships afloat have only 5 squares",
            ),
            (
                json!({"shots": [{"at": "C3", "result": "hit"},
                    {"at": "C4", "result": "sunk", "ship": "A"}]}),
                "ship A (length 5) sunk at C4 does not fit",
            ),
            (
                json!({"shots": [{"at": "A1", "result": "sunk", "ship": "Q"}]}),
                "ship \"Q\" is not afloat",
            ),
            (
                json!({"shots": [{"at": "A1", "result": "miss"}, {"at": "A1", "result": "hit"}]}),
                "A1 was shot before",
            ),
            (json!({"size": 8}), "the board is 8x8"),
            (
                json!({"shots": [{"at": "A1", "result": "splash"}]}),
                "unknown variant `splash`",
            ),
            (json!({"fleet": []}), "every ship is sunk"),
            (json!({"contest": "2\n1\nP\n"}), "contest text: "),
        ] {
            let (status, answer) = post_json(record.clone()).await;
            assert_eq!(
                status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{record}: {answer}"
            );
            let message = answer["error"].as_str().expect("a message");
            assert!(message.contains(words), "{record}: {message}");
        }
        // Squares marked sunk that cannot hold the ships no longer afloat: one square, and the
        // PT boat sunk. Refused as the whole body and inside the JSON alike.
        let mut text = String::from("1\n4\nA B D S\n3 0 0 0 0 0 0 0 0 0\n");
        for _ in 1..10 {
            text.push_str("0 0 0 0 0 0 0 0 0 0\n");
        }
        for (status, answer) in [
            post(text.clone()).await,
            post_json(json!({"contest": text})).await,
        ] {
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
            let message = answer["error"].as_str().expect("a message");
            assert!(
                message.contains(
                    "contest text: line 3: the squares marked sunk (3) cannot hold the ships no \
                     longer afloat (P: 2 squares"
                ),
                "{message}"
            );
        }
        // Hits no fleet can cover: a full row of hits for a lone PT boat's neighbours.
        let (status, answer) = post_json(json!({"fleet": ["A"], "shots": [
            {"at": "A1", "result": "hit"}, {"at": "J10", "result": "hit"}]}))
        .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
        assert!(
            answer["error"]
                .as_str()
                .expect("a message")
                .contains("no arrangement")
        );
    }
}
