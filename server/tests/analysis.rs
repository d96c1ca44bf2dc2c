//! `AnalyseRecord` over gRPC: a finished match's analysis with every decision valued, kept in
//! the store and given again without work; a match in play, a budget over the limit and a
//! second analysis from one client refused with their reasons.
#![allow(clippy::unwrap_used)] // In tests a panic is the failure report.

mod common;

use std::time::Duration;

use calabresella_proto::v1;
use calabresella_server::ServerConfig;
use common::{TestServer, create, fetch_record, options, reason, table_of};

/// A table of bots playing `game`, and its id once the match is over.
async fn finished(server: &TestServer, game: v1::Game, seats: usize, seed: u64) -> String {
    let mut c = server.client.clone();
    let t = create(
        &mut c,
        options(game, 2),
        vec![v1::SeatKind::BotRandom; seats],
        seed,
        None,
    )
    .await;
    for _ in 0..600 {
        if table_of(&mut c, &t.table_id).await.state == v1::TableState::Finished as i32 {
            return t.table_id;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the bots' match did not finish");
}

fn ask(table_id: &str, budget_ms: u32, seed: u64) -> v1::AnalyseRecordRequest {
    v1::AnalyseRecordRequest {
        table_id: table_id.into(),
        budget_ms,
        seed,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_match_is_analysed_once_and_kept() {
    let server = TestServer::start(ServerConfig::default()).await;
    let mut c = server.client.clone();
    let id = finished(&server, v1::Game::TressetteInDue, 2, 3).await;
    let first = c.analyse_record(ask(&id, 0, 7)).await.unwrap().into_inner();
    assert!(!first.cached);
    let a = first.analysis.unwrap();
    assert_eq!(a.game, "tressette-in-due");
    assert_eq!((a.seed, a.budget.as_str()), (7, "worlds=24:work=3000"));
    assert!(!a.decisions.is_empty());
    assert_eq!(a.seats.len(), 2);
    // What the wire carries is the engine's analysis of the stored record.
    let record = fetch_record(&c, id.clone()).await;
    let local = calabresella_engine::search::analysis::analyse(
        &calabresella_engine::record::Record::parse(&record.record_json).unwrap(),
        &calabresella_engine::search::AnalysisOptions {
            seed: 7,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(a.decisions.len(), local.decisions.len());
    for (w, l) in a.decisions.iter().zip(&local.decisions) {
        assert_eq!((w.hand as usize, w.index as usize), (l.hand, l.index));
        assert_eq!((&w.chosen, &w.best, w.loss), (&l.chosen, &l.best, l.loss));
        assert_eq!(w.exact_loss, l.exact_loss);
        assert_eq!(w.actions.len(), l.actions.len());
    }
    for (w, l) in a.seats.iter().zip(&local.seats) {
        assert_eq!(w.mean_loss, l.mean_loss);
        assert_eq!(w.large_errors as usize, l.large_errors);
    }
    // Asked again: from the store, the same analysis.
    let again = c.analyse_record(ask(&id, 0, 7)).await.unwrap().into_inner();
    assert!(again.cached);
    assert_eq!(again.analysis.unwrap(), a);
    // Another seed is another analysis.
    let other = c.analyse_record(ask(&id, 0, 8)).await.unwrap().into_inner();
    assert!(!other.cached);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn matches_in_play_bad_budgets_and_unknown_tables_are_refused() {
    let server = TestServer::start(ServerConfig::default()).await;
    let mut c = server.client.clone();
    // A table nobody has joined: in play as far as analysis goes, nothing revealed.
    let open = create(
        &mut c,
        options(v1::Game::Calabresella, 21),
        vec![v1::SeatKind::Open; 3],
        1,
        None,
    )
    .await;
    let e = c
        .analyse_record(ask(&open.table_id, 0, 0))
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::FailedPrecondition);
    assert_eq!(reason(&e), "MATCH_IN_PROGRESS");
    let id = finished(&server, v1::Game::Tressette, 4, 2).await;
    let e = c.analyse_record(ask(&id, 51, 0)).await.unwrap_err();
    assert_eq!(e.code(), tonic::Code::InvalidArgument);
    assert_eq!(reason(&e), "BAD_BUDGET");
    assert!(e.message().contains("50 ms"), "{}", e.message());
    let e = c.analyse_record(ask("t-nothing", 0, 0)).await.unwrap_err();
    assert_eq!(e.code(), tonic::Code::NotFound);
    let e = c.analyse_record(ask("", 0, 0)).await.unwrap_err();
    assert_eq!(reason(&e), "BAD_TABLE_ID");
    // A budget within the limit works.
    let ok = c.analyse_record(ask(&id, 2, 0)).await.unwrap().into_inner();
    assert_eq!(
        ok.analysis.unwrap().budget,
        "worlds=100000:work=100000000:ms=2"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_client_runs_one_analysis_at_a_time() {
    let server = TestServer::start(ServerConfig {
        analysis_max_ms: 1000,
        ..ServerConfig::default()
    })
    .await;
    let id = finished(&server, v1::Game::Calabresella, 3, 5).await;
    // A slow analysis (50 ms per decision) runs; the same client's second is refused, not
    // queued, and the first still completes.
    let mut c = server.client.clone();
    let slow_id = id.clone();
    let slow = tokio::spawn(async move { c.analyse_record(ask(&slow_id, 50, 1)).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut c = server.client.clone();
    let e = c.analyse_record(ask(&id, 0, 2)).await.unwrap_err();
    assert_eq!(e.code(), tonic::Code::ResourceExhausted);
    assert_eq!(reason(&e), "TOO_MANY_ANALYSES");
    let done = slow.await.unwrap().unwrap().into_inner();
    assert!(!done.analysis.unwrap().decisions.is_empty());
    // Once it is over, the client may ask again.
    c.analyse_record(ask(&id, 0, 2)).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_that_gives_up_frees_nothing_early_and_the_work_is_kept() {
    let server = TestServer::start(ServerConfig {
        analysis_max_ms: 1000,
        ..ServerConfig::default()
    })
    .await;
    let id = finished(&server, v1::Game::Calabresella, 3, 6).await;
    let mut c = server.client.clone();
    // A deadline of 50 ms: the call ends, the analysis (20 ms a decision) goes on.
    let mut quick = tonic::Request::new(ask(&id, 20, 3));
    quick.set_timeout(Duration::from_millis(50));
    let e = c.analyse_record(quick).await.unwrap_err();
    assert!(
        matches!(
            e.code(),
            tonic::Code::DeadlineExceeded | tonic::Code::Cancelled
        ),
        "{e:?}"
    );
    // Its slot is still held: the same client cannot start another meanwhile.
    let e = c.analyse_record(ask(&id, 0, 4)).await.unwrap_err();
    assert_eq!(reason(&e), "TOO_MANY_ANALYSES");
    // Once done, the abandoned analysis is there for the asking.
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    loop {
        match c.analyse_record(ask(&id, 20, 3)).await {
            Ok(r) => {
                assert!(r.into_inner().cached, "the abandoned work was kept");
                break;
            }
            Err(e) => assert_eq!(reason(&e), "TOO_MANY_ANALYSES"),
        }
        assert!(std::time::Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_keeps_its_newest_analyses_only() {
    let server = TestServer::start(ServerConfig::default()).await;
    let mut c = server.client.clone();
    let id = finished(&server, v1::Game::TressetteInDue, 2, 9).await;
    let per_table = calabresella_server::store::analyses::PER_TABLE as u64;
    for seed in 0..per_table + 3 {
        c.analyse_record(ask(&id, 0, seed)).await.unwrap();
        // Apart in time: the oldest is the first asked.
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    let budget = "worlds=24:work=3000";
    for seed in 0..per_table + 3 {
        let t = id.clone();
        let kept = server
            .store
            .read(move |conn| calabresella_server::store::analyses::get(conn, &t, budget, seed))
            .await
            .unwrap();
        assert_eq!(kept.is_some(), seed >= 3, "seed {seed}");
    }
}
