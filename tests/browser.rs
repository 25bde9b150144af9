//! The real page in headless Chromium, driven through WebDriver (Debian's chromium and
//! chromium-driver, installed by `tests/browser/setup.sh` when missing): a game played
//! by clicks against the engine to its end, the board checked after every move against
//! `isolo-ai apply`; illegal clicks explained; an Igisoro move's take/pass choices asked
//! in place; a rules file (Kubuguza with optional captures and the retreat) loaded, a
//! clockwise capture made and a pass answered by the other player's retreat, each
//! decision shown before it is asked (the move played up to it, its pits lit and named,
//! a lap's two ends ringed) on a phone's screen, and Cancel taking a move back; the
//! move list, undo and redo; clocks that start with the first move; a phone's screen
//! either way up; screenshots of the start, a mid-game analysis, a relay animation
//! frame and a phone both ways (into `$ISOLO_SCREENSHOTS` when set: `docs/screenshots`).
//!
//! Ignored by `cargo test` (it needs root for the packages and a browser); `.ci/run`
//! runs it with `cargo test --profile testing --test browser -- --ignored`.

mod common;

use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::process::json as cli_json;
use common::server::Server;
use common::Rng;
use fantoccini::{Client, ClientBuilder, Locator};
use isolo_rules::{Side, Variant};
use serde_json::{json, Value};

type TestResult<T = ()> = Result<T, Box<dyn std::error::Error>>;

/// How long the page may stay busy (an engine move, an animation) before the test fails.
const IDLE_DEADLINE: Duration = Duration::from_secs(60);
/// Plies after which the clicked game must have ended.
const MOST_PLIES: usize = 400;

/// chromedriver in a process group of its own, ended with the group (the browsers it
/// started with it) when the test ends.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("chromedriver starts (tests/browser/setup.sh installs it)");
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver listens"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        Driver { child, port }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill").args(["-TERM", "--", &group]).status();
        let _ = self.child.wait();
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
    }
}

async fn connect(driver: &Driver, profile: &std::path::Path) -> TestResult<Client> {
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,1000",
        &format!("--user-data-dir={}", profile.display()),
    ];
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({"binary": "/usr/bin/chromium", "args": args}),
    );
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await?;
    Ok(client)
}

/// Runs a script in the page and returns its value.
async fn script(client: &Client, code: &str) -> TestResult<Value> {
    Ok(client.execute(code, vec![]).await?)
}

/// Waits until the page is neither searching nor animating.
async fn wait_idle(client: &Client) -> TestResult {
    let started = Instant::now();
    loop {
        let busy = script(client, "return document.body.dataset.busy").await?;
        if busy == "0" {
            return Ok(());
        }
        if started.elapsed() > IDLE_DEADLINE {
            return Err("the page stayed busy".into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What the page shows: position text, move list, status, message, and every pit's
/// drawn seed count as (side, pit, seeds).
async fn shown(client: &Client) -> TestResult<Value> {
    script(
        client,
        "return {
            position: document.getElementById('position-text').textContent,
            moves: [...document.querySelectorAll('#movelist li')].map(li => li.textContent),
            status: document.getElementById('status').textContent,
            message: document.getElementById('message').textContent,
            clocks: document.getElementById('clocks').textContent,
            pits: [...document.querySelectorAll('#board g.pit')].map(g =>
                [g.dataset.side, Number(g.dataset.pit), Number(g.dataset.seeds)]),
        }",
    )
    .await
}

/// The evaluation bar's words.
async fn bar_text(client: &Client) -> TestResult<String> {
    let text = script(
        client,
        "return document.getElementById('evalbar-text').textContent",
    );
    Ok(text.await?.as_str().unwrap_or_default().to_string())
}

/// The caption under the board.
async fn caption_text(client: &Client) -> TestResult<String> {
    let caption = script(
        client,
        "return document.getElementById('caption').textContent",
    )
    .await?;
    Ok(caption.as_str().unwrap_or_default().to_string())
}

/// The position `isolo-ai apply` reaches with `moves` from the start of `variant`
/// (`spec`: its preset's name or rules file).
fn applied(variant: &Variant, spec: &str, moves: &[String]) -> String {
    if moves.is_empty() {
        return variant.format_position(&variant.start());
    }
    let list = moves.join(" ");
    let args = ["apply", "--variant", spec, "--moves", &list, "--json"];
    cli_json(&args)["position"].as_str().unwrap().to_string()
}

/// Checks the shown board against `isolo-ai apply` of the shown moves, and returns the
/// moves.
async fn check_board(client: &Client, variant: &Variant) -> TestResult<Vec<String>> {
    check_board_of(client, variant, variant.name()).await
}

/// `check_board` for rules `spec` (a preset's name or a rules file).
async fn check_board_of(client: &Client, variant: &Variant, spec: &str) -> TestResult<Vec<String>> {
    let page = shown(client).await?;
    let moves: Vec<String> = page["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let expected = applied(variant, spec, &moves);
    assert_eq!(page["position"], expected, "after {moves:?}");
    let board = variant.parse_position(&expected).unwrap();
    assert_eq!(page["pits"].as_array().unwrap().len(), 2 * variant.pits());
    check_pits(&page, &board, &format!("after {moves:?}"));
    Ok(moves)
}

/// Every pit the page drew (`shown`'s `pits`) holds what `board` holds.
fn check_pits(page: &Value, board: &isolo_rules::Board, when: &str) {
    for pit in page["pits"].as_array().unwrap() {
        let side = if pit[0] == "S" {
            Side::South
        } else {
            Side::North
        };
        let n = pit[1].as_u64().unwrap() as usize;
        assert_eq!(
            pit[2].as_u64(),
            Some(board.seeds(side, n) as u64),
            "{side} pit {n} {when}"
        );
    }
}

async fn click_pit(client: &Client, side: &str, pit: usize) -> TestResult {
    let css = format!("#board g.pit[data-side=\"{side}\"][data-pit=\"{pit}\"]");
    client.find(Locator::Css(&css)).await?.click().await?;
    Ok(())
}

async fn click(client: &Client, id: &str) -> TestResult {
    client.find(Locator::Id(id)).await?.click().await?;
    Ok(())
}

/// Sets a form control's value as a user would and fires its change event.
async fn set_value(client: &Client, id: &str, value: &str) -> TestResult {
    let code = format!(
        "const e = document.getElementById('{id}'); e.value = {value:?}; e.dispatchEvent(new Event('change')); e.dispatchEvent(new Event('input'));"
    );
    script(client, &code).await?;
    Ok(())
}

fn screenshot_dir() -> PathBuf {
    match std::env::var_os("ISOLO_SCREENSHOTS") {
        Some(dir) => PathBuf::from(dir),
        None => std::env::temp_dir().join(format!("isolo-ai-screens-{}", std::process::id())),
    }
}

async fn screenshot(client: &Client, name: &str) -> TestResult {
    let png = client.screenshot().await?;
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    let dir = screenshot_dir();
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join(name), png)?;
    Ok(())
}

/// South (the test) against the engine at level 3, 100 ms a move, on the women's board,
/// by clicks, to the end; every position checked (and with `screenshots`, the start and
/// the analysis shot). Returns the moves.
async fn play_a_game_by_clicks(
    client: &Client,
    server: &Server,
    screenshots: bool,
) -> TestResult<Vec<String>> {
    let women = Variant::load("isolo-women").unwrap();
    client.goto(&server.url).await?;
    wait_idle(client).await?;
    // The first game offered: the recommended reading at a middle level, and a newcomer
    // told which side and rows are theirs.
    let offered = script(
        client,
        "return {variant: document.getElementById('variant').value,
                 level: document.getElementById('level').value,
                 status: document.getElementById('status').textContent,
                 bar: document.getElementById('evalbar-text').textContent};",
    )
    .await?;
    assert_eq!(offered["variant"], "isolo-boys-capture-ends", "{offered}");
    assert_eq!(offered["level"], "4", "{offered}");
    assert!(
        offered["status"]
            .as_str()
            .unwrap()
            .starts_with("You are South: tap a pit in your two rows (the lower two)"),
        "{offered}"
    );
    assert!(
        offered["bar"]
            .as_str()
            .unwrap()
            .contains("not evaluated yet"),
        "{offered}"
    );
    set_value(client, "variant", "isolo-women").await?;
    wait_idle(client).await?;
    set_value(client, "strength", "ms:100").await?;
    set_value(client, "level", "3").await?;
    set_value(client, "speed", "100").await?;
    check_board(client, &women).await?;
    if screenshots {
        screenshot(client, "start.png").await?;
    }

    // Illegal clicks are explained.
    click_pit(client, "N", 3).await?;
    let message = shown(client).await?["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(message.contains("That pit is North's"), "{message}");

    let mut rng = Rng(0x0b50_0001);
    let mut explained_an_empty_pit = false;
    loop {
        wait_idle(client).await?;
        let moves = check_board(client, &women).await?;
        let page = shown(client).await?;
        if page["status"].as_str().unwrap().starts_with("Game over") {
            return Ok(moves);
        }
        assert!(moves.len() < MOST_PLIES, "the game ends");
        let board = women
            .parse_position(page["position"].as_str().unwrap())
            .unwrap();
        assert_eq!(board.to_move(), Side::South, "the engine has replied");
        if !explained_an_empty_pit {
            if let Some(pit) = (1..=women.pits()).find(|&p| board.seeds(Side::South, p) < 2) {
                click_pit(client, "S", pit).await?;
                wait_idle(client).await?;
                let message = shown(client).await?["message"]
                    .as_str()
                    .unwrap()
                    .to_string();
                assert!(message.contains(&format!("pit {pit} holds")), "{message}");
                explained_an_empty_pit = true;
            }
        }
        let legal = women.legal_moves(&board);
        let pick = &legal[rng.below(legal.len() as u64) as usize];
        click_pit(client, "S", pick.mv.pit as usize).await?;
        // Mid-game, with the analysis on: a screenshot.
        if moves.len() == 2 && screenshots {
            wait_idle(client).await?;
            click(client, "analyse").await?;
            wait_idle(client).await?;
            let lines = script(
                client,
                "return document.querySelectorAll('#analysis li').length",
            )
            .await?;
            assert!(lines.as_u64().unwrap() >= 1, "analysis lines are shown");
            screenshot(client, "analysis.png").await?;
            click(client, "analyse").await?;
        }
    }
}

/// The take/pass choices of an Igisoro move asked in place: South's pit 11 after
/// "1 3 7 2" has 11xx, 11xp and 11p.
async fn choose_take_then_pass(client: &Client) -> TestResult {
    let igisoro = Variant::load("igisoro").unwrap();
    set_value(client, "variant", "igisoro").await?;
    set_value(client, "side", "both").await?;
    wait_idle(client).await?;
    set_value(client, "moves-input", "1 3 7 2").await?;
    click(client, "load-moves").await?;
    wait_idle(client).await?;
    check_board(client, &igisoro).await?;
    let who = client.find(Locator::Id("who")).await?.text().await?;
    assert_eq!(who, "Igisoro \u{b7} you play both sides");
    // The move list names who made each move.
    let sides = script(
        client,
        "return [...document.querySelectorAll('#movelist li')].map(li => li.dataset.side)",
    )
    .await?;
    assert_eq!(sides, json!(["South", "North", "South", "North"]));
    click_pit(client, "S", 11).await?;
    wait_idle(client).await?;
    let choice = client.find(Locator::Id("choice")).await?;
    assert!(choice.is_displayed().await?, "the first capture asks");
    let before = igisoro.start();
    let before = ["1", "3", "7", "2"]
        .iter()
        .fold(before, |b, m| igisoro.play_text(&b, m).unwrap().child);
    for (half, take) in [("11", "choice-take"), ("11x", "choice-pass")] {
        // Shown before it is asked: the board as the move stands, the lap's end and the
        // pits at stake lit, the question naming them.
        let decision = igisoro
            .decision_at(&before, &igisoro.parse_move(half).unwrap())
            .unwrap();
        check_decision(client, &decision).await?;
        if half == "11" {
            screenshot(client, "decision.png").await?;
        }
        click(client, take).await?;
        wait_idle(client).await?;
        if half == "11" {
            assert!(choice.is_displayed().await?, "the second capture asks");
        }
    }
    wait_idle(client).await?;
    let moves = check_board(client, &igisoro).await?;
    assert_eq!(moves.last().map(String::as_str), Some("11xp"));
    Ok(())
}

/// The page shows `decision` before asking it: its question, its pits lit (the lap's
/// end and the pits at stake, or at a direction the lap's pit and what either way
/// captures), the board as sown.
async fn check_decision(client: &Client, decision: &isolo_rules::Decision) -> TestResult {
    let question = client
        .find(Locator::Id("choice-text"))
        .await?
        .text()
        .await?;
    assert_eq!(question, decision.question());
    let lit = script(
        client,
        "return [...document.querySelectorAll('#board g.pit.lit')]
            .map(g => [g.dataset.side, Number(g.dataset.pit)])",
    )
    .await?;
    let (mover, other) = (decision.mover.letter(), decision.mover.opponent().letter());
    let mut wanted: Vec<Value> = match decision.kind {
        // (At a direction, the lap's pit and the opponent's pits either way captures.)
        isolo_rules::DecisionKind::Direction => {
            let stakes = decision
                .lap_outcomes
                .iter()
                .flatten()
                .flat_map(|o| o.stake());
            std::iter::once(json!([mover.to_string(), decision.lap_pit]))
                .chain(stakes.map(|p| json!([other.to_string(), p])))
                .collect()
        }
        _ => std::iter::once(json!([mover.to_string(), decision.end_pit]))
            .chain(decision.stake.iter().map(|p| json!([other.to_string(), p])))
            .collect(),
    };
    let mut lit = lit.as_array().cloned().unwrap_or_default();
    let key = |v: &Value| v.to_string();
    lit.sort_by_key(key);
    wanted.sort_by_key(key);
    assert_eq!(lit, wanted, "the pits lit at {question}");
    let page = shown(client).await?;
    check_pits(&page, &decision.board, &format!("as sown up to {question}"));
    // At a direction, the pits the lap's last seed reaches each way, ringed.
    let ringed = script(
        client,
        "return [...document.querySelectorAll('#board g.pit.lap-end')]
            .map(g => Number(g.dataset.pit)).sort((a, b) => a - b)",
    )
    .await?;
    let mut ends: Vec<u8> = decision.lap_ends.map(Vec::from).unwrap_or_default();
    ends.sort();
    ends.dedup();
    assert_eq!(ringed, json!(ends), "the lap's ends ringed at {question}");
    let least = script(
        client,
        "return Math.min(...[...document.querySelectorAll('#choice button')]
            .filter((b) => b.offsetParent !== null)
            .map((b) => Math.min(b.getBoundingClientRect().height,
                                 b.getBoundingClientRect().width)))",
    )
    .await?;
    assert!(
        least.as_f64().unwrap() >= 44.0,
        "answers large enough to tap: {least}"
    );
    Ok(())
}

/// A Kubuguza lap's direction asked in place: South's pit 15 after "9 10" may sow
/// anticlockwise (15a) or clockwise, capturing (15c).
async fn choose_a_clockwise_lap(client: &Client) -> TestResult {
    let kubuguza = Variant::load("kubuguza").unwrap();
    set_value(client, "variant", "kubuguza").await?;
    set_value(client, "side", "both").await?;
    wait_idle(client).await?;
    set_value(client, "moves-input", "9 10").await?;
    click(client, "load-moves").await?;
    wait_idle(client).await?;
    check_board(client, &kubuguza).await?;
    click_pit(client, "S", 15).await?;
    wait_idle(client).await?;
    let choice = client.find(Locator::Id("choice")).await?;
    assert!(choice.is_displayed().await?, "the lap's direction asks");
    let before = ["9", "10"].iter().fold(kubuguza.start(), |b, m| {
        kubuguza.play_text(&b, m).unwrap().child
    });
    let decision = kubuguza
        .decision_at(&before, &kubuguza.parse_move("15").unwrap())
        .unwrap();
    check_decision(client, &decision).await?;
    for (id, offered) in [
        ("choice-anticlockwise", true),
        ("choice-clockwise", true),
        ("choice-take", false),
    ] {
        let button = client.find(Locator::Id(id)).await?;
        assert_eq!(button.is_displayed().await?, offered, "{id}");
    }
    click(client, "choice-clockwise").await?;
    wait_idle(client).await?;
    let moves = check_board(client, &kubuguza).await?;
    assert_eq!(moves.last().map(String::as_str), Some("15c"));
    Ok(())
}

/// Kubuguza with optional captures and the retreat, from a rules file: a move with a
/// clockwise lap and a capture taken, then the other side's move whose passed capture
/// the first player answers by retreating, each choice asked in place and the answer
/// asked of the other player.
async fn a_clockwise_capture_and_a_retreat(client: &Client) -> TestResult {
    let text = "name = \"kubuguza-retreat\"\nbase = \"kubuguza\"\n\
                capture_choice = \"optional\"\nretreat = \"front-to-back\"\n";
    let (path, spec, variant) = load_rules_file(client, "kubuguza-retreat", text).await?;
    let (line, turning, answered) = clockwise_then_retreat(&variant);
    set_value(client, "moves-input", &line.join(" ")).await?;
    click(client, "load-moves").await?;
    wait_idle(client).await?;
    check_board_of(client, &variant, &spec).await?;
    for (mv, mover, answers) in [(&turning, "South", 0), (&answered, "North", 1)] {
        let (moves, asked) = play_by_choices(client, mv).await?;
        assert_eq!(moves.last(), Some(mv), "{mover} played {mv}");
        assert_eq!(asked, answers, "answers asked of the other player in {mv}");
        check_board_of(client, &variant, &spec).await?;
    }
    std::fs::remove_file(&path)?;
    Ok(())
}

/// Writes rules `text` to a file named after `name` and loads it on the page, both sides
/// played by hand: the file, its path as the page was given it, and its rules.
async fn load_rules_file(
    client: &Client,
    name: &str,
    text: &str,
) -> TestResult<(PathBuf, String, Variant)> {
    let path = std::env::temp_dir().join(format!("{name}-{}.toml", std::process::id()));
    std::fs::write(&path, text)?;
    let spec = path.to_str().unwrap().to_string();
    let variant = Variant::load(&spec).unwrap();
    set_value(client, "side", "both").await?;
    client
        .find(Locator::Id("rules-file"))
        .await?
        .send_keys(&spec)
        .await?;
    wait_idle(client).await?;
    Ok((path, spec, variant))
}

/// Against the engine under the retreat, the engine's pass that threatens your front pit
/// is answered by you: the page asks before its move is played, and where you answer
/// otherwise than it expected, the engine goes on from there.
async fn you_answer_the_engines_pass(client: &Client) -> TestResult {
    let (path, variant) = load_retreat_position(client).await?;
    let start = RETREAT_POSITION;
    // On a clock: while South answers inside North's move, South's clock runs.
    set_value(client, "strength", "tc:60+1").await?;
    set_value(client, "side", "S").await?;
    let who = client.find(Locator::Id("who")).await?.text().await?;
    assert!(
        who.starts_with("Igisoro with the retreat \u{b7} you are South \u{b7} engine: level"),
        "{who}"
    );
    let choice = client.find(Locator::Id("choice")).await?;
    let mut asked = 0;
    let started = Instant::now();
    loop {
        if choice.is_displayed().await? {
            let question = client
                .find(Locator::Id("choice-text"))
                .await?
                .text()
                .await?;
            assert!(
                question.starts_with("South, answer: North passed"),
                "{question}"
            );
            let cancel = client.find(Locator::Id("choice-cancel")).await?;
            assert!(
                !cancel.is_displayed().await?,
                "an answer inside the engine's move offers no Cancel (it froze the game)"
            );
            let clocks = client.find(Locator::Id("clocks")).await?.text().await?;
            let (south, north) = clocks.split_once(" \u{b7} ").unwrap_or_default();
            assert!(
                south.contains("(running)") && !north.contains("(running)"),
                "South's clock runs while South answers: {clocks}"
            );
            asked += 1;
            click(client, "choice-stay").await?;
        } else if asked > 0 && played_and_idle(client).await? {
            // (Idle alone is not enough: between one answer and the next decision the
            // page may rest a moment with the move not yet played.)
            break;
        }
        if started.elapsed() > IDLE_DEADLINE {
            return Err(format!("no answer asked of South: {}", shown(client).await?).into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    wait_idle(client).await?;
    let page = shown(client).await?;
    let played = page["moves"][0].as_str().unwrap_or_default().to_string();
    assert!(
        played.starts_with("9ps"),
        "North's move as South answered: {page}"
    );
    let before = variant.parse_position(start).unwrap();
    let child = variant.play_text(&before, &played).unwrap().child;
    assert_eq!(page["position"], variant.format_position(&child).as_str());
    screenshot(client, "retreat-answered.png").await?;
    set_value(client, "side", "both").await?;
    set_value(client, "strength", "ms:500").await?;
    std::fs::remove_file(&path)?;
    Ok(())
}

/// Igisoro with the retreat, North to move: its best move by far passes a capture at pit
/// 9 that South may answer (`9prxxxpsx`, 30 seeds ahead of the next move at depth 6).
const RETREAT_POSITION: &str = "2,0,4,0,0,0,7,1/1,3,1,0,0,3,0,0/1,1,5,2,0,3,1,4/3,1,1,1,1,6,0,12 N";

/// The rules of `igisoro-retreat` loaded from a file, at `RETREAT_POSITION`, played by
/// hand on both sides: the file and the rules.
async fn load_retreat_position(client: &Client) -> TestResult<(PathBuf, Variant)> {
    let text = "name = \"igisoro-retreat\"\nbase = \"igisoro\"\nretreat = \"front-to-back\"\n";
    let (path, _, variant) = load_rules_file(client, "igisoro-retreat", text).await?;
    set_value(client, "position-input", RETREAT_POSITION).await?;
    click(client, "load-position").await?;
    wait_idle(client).await?;
    Ok((path, variant))
}

/// Under the retreat, played by hand on both sides: North's move stops at its capture
/// and at South's answer, each shown first; Cancel at the answer takes the move back to
/// its start, and the move is then asked again from its first decision and played.
async fn cancel_takes_a_move_back(client: &Client) -> TestResult {
    let (path, variant) = load_retreat_position(client).await?;
    let start = RETREAT_POSITION;
    let board = variant.parse_position(start).unwrap();
    let decision = |half: &str| {
        let half = variant.parse_move(half).unwrap();
        variant.decision_at(&board, &half).unwrap()
    };
    click_pit(client, "N", 9).await?;
    wait_idle(client).await?;
    check_decision(client, &decision("9")).await?;
    click(client, "choice-pass").await?;
    wait_idle(client).await?;
    let answer = decision("9p");
    check_decision(client, &answer).await?;
    assert!(answer.question().starts_with("South, answer: North passed"));
    click(client, "choice-cancel").await?;
    wait_idle(client).await?;
    let choice = client.find(Locator::Id("choice")).await?;
    assert!(!choice.is_displayed().await?, "Cancel closes the question");
    let page = shown(client).await?;
    assert_eq!(page["position"], start, "Cancel takes the move back");
    check_pits(&page, &board, "after Cancel");
    let status = page["status"].as_str().unwrap_or_default();
    assert!(status.starts_with("North to move"), "{status}");
    let (moves, answers) = play_by_choices(client, "9prxxxpsx").await?;
    assert_eq!(moves.last().map(String::as_str), Some("9prxxxpsx"));
    assert_eq!(answers, 2, "South answered both passes");
    let child = variant.play_text(&board, "9prxxxpsx").unwrap().child;
    let page = shown(client).await?;
    assert_eq!(page["position"], variant.format_position(&child).as_str());
    check_pits(&page, &child, "after 9prxxxpsx");
    std::fs::remove_file(&path)?;
    Ok(())
}

/// A line of the rules' moves from their start, then South's move with a clockwise
/// lap and a capture taken, then North's with a pass answered by a retreat: searched
/// along random games.
fn clockwise_then_retreat(variant: &Variant) -> (Vec<String>, String, String) {
    let mut rng = Rng(0x7e7e_a7a7);
    loop {
        let mut board = variant.start();
        let mut line = Vec::new();
        for _ in 0..60 {
            let moves = variant.legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            let turning = moves.iter().find(|m| {
                let text = m.mv.to_string();
                text.contains('c') && text.contains('x') && !text.contains('r')
            });
            if let (Some(m), Side::South) = (turning, board.to_move()) {
                let answered = variant
                    .legal_moves(&m.child)
                    .into_iter()
                    .map(|a| a.mv.to_string())
                    .find(|a| a.contains('r') && !a.contains('c'));
                if let Some(answered) = answered {
                    return (line, m.mv.to_string(), answered);
                }
            }
            let next = &moves[rng.below(moves.len() as u64) as usize];
            line.push(next.mv.to_string());
            board = next.child;
        }
    }
}

/// Plays `mv` by clicking its pit and then, while the page asks, the button of each of
/// its choices; the answer to a pass is asked of the other player. The moves shown after,
/// and how many answers were asked.
async fn play_by_choices(client: &Client, mv: &str) -> TestResult<(Vec<String>, usize)> {
    let page = shown(client).await?;
    let position = page["position"].as_str().unwrap();
    let mover = position.split_whitespace().nth(1).unwrap().to_string();
    let digits = mv.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    click_pit(client, &mover, digits.parse()?).await?;
    wait_idle(client).await?;
    let choice = client.find(Locator::Id("choice")).await?;
    let mut answers = 0;
    for letter in mv[digits.len()..].chars() {
        if !choice.is_displayed().await? {
            break;
        }
        let asked = client
            .find(Locator::Id("choice-text"))
            .await?
            .text()
            .await?;
        let other = if mover == "S" { "North" } else { "South" };
        let answering = matches!(letter, 'r' | 's');
        assert_eq!(
            asked.starts_with(&format!("{other}, answer:")),
            answering,
            "{asked}"
        );
        answers += answering as usize;
        let id = match letter {
            'x' => "choice-take",
            'p' => "choice-pass",
            'a' => "choice-anticlockwise",
            'c' => "choice-clockwise",
            'r' => "choice-retreat",
            _ => "choice-stay",
        };
        click(client, id).await?;
        wait_idle(client).await?;
    }
    let page = shown(client).await?;
    let moves = page["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    Ok((moves, answers))
}

/// A slow animation caught mid-move, then skipped.
async fn catch_a_relay(client: &Client) -> TestResult {
    let women = Variant::load("isolo-women").unwrap();
    set_value(client, "variant", "isolo-women").await?;
    wait_idle(client).await?;
    set_value(client, "speed", "20").await?;
    click_pit(client, "S", 1).await?;
    tokio::time::sleep(Duration::from_millis(1800)).await;
    let caption = caption_text(client).await?;
    assert!(caption.starts_with("Lap "), "{caption}");
    screenshot(client, "relay.png").await?;
    click(client, "skip").await?;
    wait_idle(client).await?;
    check_board(client, &women).await?;
    Ok(())
}

/// The move list jumps to a position; undo and redo step through the line.
async fn move_list_undo_redo(client: &Client, moves: &[String]) -> TestResult {
    let women = Variant::load("isolo-women").unwrap();
    set_value(client, "side", "both").await?;
    set_value(client, "moves-input", &moves.join(" ")).await?;
    click(client, "load-moves").await?;
    wait_idle(client).await?;
    client
        .find(Locator::Css("#movelist li[data-ply=\"2\"]"))
        .await?
        .click()
        .await?;
    wait_idle(client).await?;
    let position = |plies: usize| applied(&women, women.name(), &moves[..plies]);
    assert_eq!(shown(client).await?["position"], position(2));
    click(client, "redo").await?;
    wait_idle(client).await?;
    assert_eq!(shown(client).await?["position"], position(3));
    click(client, "undo").await?;
    click(client, "undo").await?;
    wait_idle(client).await?;
    assert_eq!(shown(client).await?["position"], position(1));
    Ok(())
}

/// The page on a phone's screen (390 x 844 CSS pixels): nothing wider than the screen,
/// the board first, as wide as the screen, with pits large enough to tap.
async fn fits_a_phone(client: &Client, server: &Server) -> TestResult {
    client.set_window_size(PHONE.0, PHONE.1).await?;
    client.goto(&server.url).await?;
    wait_idle(client).await?;
    let layout = script(
        client,
        "const board = document.querySelector('#board svg').getBoundingClientRect();
         const pit = document.querySelector('#board g.pit').getBoundingClientRect();
         const svg = document.querySelector('#board svg');
         const scale = board.width / svg.viewBox.baseVal.width;
         const sizes = [...svg.querySelectorAll('text')]
           .map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
         return {view: window.innerWidth, page: document.documentElement.scrollWidth,
                 top: board.top, left: board.left, right: board.right, width: board.width,
                 pit: Math.min(pit.width, pit.height), text: Math.min(...sizes),
                 textRight: Math.max(...[...svg.querySelectorAll('text')]
                   .map((t) => t.getBoundingClientRect().right)),
                 tap: Math.min(...[...document.querySelectorAll(
                     'button, select, input[type=checkbox]')]
                   .filter((e) => e.offsetParent !== null)
                   .map((e) => (e.type === 'checkbox' ? e.closest('label') || e : e)
                     .getBoundingClientRect().height))};",
    )
    .await?;
    let number = |key: &str| layout[key].as_f64().unwrap();
    assert!(
        number("page") <= number("view"),
        "nothing scrolls sideways: {layout}"
    );
    assert!(
        number("left") >= 0.0 && number("right") <= number("view"),
        "{layout}"
    );
    assert!(
        number("width") >= 0.85 * number("view"),
        "the board spans the screen: {layout}"
    );
    // (Above it only the header, the status line, which tells a newcomer which rows
    // are theirs, and the evaluation bar with its words.)
    assert!(number("top") < 200.0, "the board comes first: {layout}");
    assert!(number("pit") >= 36.0, "pits large enough to tap: {layout}");
    // Buttons, menus and checkboxes (with their labels) the usual 44 px to tap.
    assert!(
        number("tap") >= 44.0,
        "controls large enough to tap: {layout}"
    );
    // Pit numbers, counts and the sides' lines, as drawn on the phone.
    assert!(number("text") >= 12.0, "text at least 12 px: {layout}");
    let smallest = smallest_text(client).await?;
    assert!(
        smallest.0 >= 12.0,
        "the page's text at least 12 px: {smallest:?}"
    );
    assert!(
        number("textRight") <= number("right"),
        "no text cut off: {layout}"
    );
    // The game's settings come before the analysis, and the line under the board
    // fits in two lines.
    let order = script(
        client,
        "const top = (id) => document.getElementById(id).getBoundingClientRect().top;
         const who = document.getElementById('who');
         return {level: top('level'), strength: top('strength'), analysis: top('analysis-panel'),
                 notes: top('review-notes'), who: who.getBoundingClientRect().height,
                 line: parseFloat(getComputedStyle(who).lineHeight) ||
                       1.2 * parseFloat(getComputedStyle(who).fontSize)};",
    )
    .await?;
    let at = |key: &str| order[key].as_f64().unwrap();
    assert!(
        at("level") < at("analysis") && at("strength") < at("analysis"),
        "level and time above the analysis: {order}"
    );
    assert!(
        at("notes") < at("analysis"),
        "the review's notes by the board: {order}"
    );
    assert!(
        at("who") <= 2.5 * at("line"),
        "who plays what in two lines: {order}"
    );
    screenshot(client, "phone.png").await
}

/// A phone on its side (844 x 390): the board wholly on screen with your rows, no
/// scroll to move, the status and settings beside it; scrolled down to the settings,
/// the board stays in view.
async fn fits_a_phone_on_its_side(client: &Client, server: &Server) -> TestResult {
    client.set_window_size(PHONE.1, PHONE.0).await?;
    client.goto(&server.url).await?;
    wait_idle(client).await?;
    let measure = "const board = document.querySelector('#board svg').getBoundingClientRect();
         const pits = [...document.querySelectorAll('#board g.pit.to-move')]
           .map((g) => g.getBoundingClientRect());
         const status = document.getElementById('status').getBoundingClientRect();
         return {view: window.innerWidth, height: window.innerHeight,
                 page: document.documentElement.scrollWidth,
                 top: board.top, bottom: board.bottom, left: board.left, right: board.right,
                 pits: pits.length,
                 pitsIn: pits.every((p) => p.top >= 0 && p.bottom <= window.innerHeight
                                       && p.left >= 0 && p.right <= window.innerWidth),
                 pit: Math.min(...pits.map((p) => Math.min(p.width, p.height))),
                 statusLeft: status.left};";
    let layout = script(client, measure).await?;
    let number = |layout: &Value, key: &str| layout[key].as_f64().unwrap();
    assert!(
        number(&layout, "page") <= number(&layout, "view"),
        "nothing scrolls sideways: {layout}"
    );
    assert!(
        number(&layout, "top") >= 0.0 && number(&layout, "bottom") <= number(&layout, "height"),
        "the board wholly on screen: {layout}"
    );
    assert!(
        number(&layout, "pits") > 0.0 && layout["pitsIn"] == true,
        "{layout}"
    );
    assert!(
        number(&layout, "pit") >= 30.0,
        "pits large enough to tap: {layout}"
    );
    assert!(
        number(&layout, "statusLeft") >= number(&layout, "right"),
        "the status beside the board: {layout}"
    );
    screenshot(client, "phone-landscape.png").await?;
    // Scrolled down to the analysis, the board is still wholly on screen.
    script(
        client,
        "document.getElementById('analysis-panel').scrollIntoView(); return null;",
    )
    .await?;
    let scrolled = script(client, measure).await?;
    assert!(
        number(&scrolled, "top") >= 0.0
            && number(&scrolled, "bottom") <= number(&scrolled, "height")
            && scrolled["pitsIn"] == true,
        "the board held in view: {scrolled}"
    );
    client.set_window_size(PHONE.0, PHONE.1).await?;
    Ok(())
}

/// Whether the page is idle with a move in its list: the engine's move played.
async fn played_and_idle(client: &Client) -> TestResult<bool> {
    let done = script(
        client,
        "return document.body.dataset.busy === '0'
                && document.querySelectorAll('#movelist li').length > 0",
    )
    .await?;
    Ok(done == true)
}

/// Igisoro at phone size, played into a dead position: South takes two of North's
/// three seeds (15x), leaving a lone seed, and the game ends at once, in words, the
/// bar certain.
async fn a_dead_position_ends_the_game(client: &Client) -> TestResult {
    set_value(client, "variant", "igisoro").await?;
    set_value(client, "side", "both").await?;
    wait_idle(client).await?;
    let three = "1,0,0,0,1,0,0,0/1,0,0,0,0,0,0,0/2,1,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S";
    set_value(client, "position-input", three).await?;
    click(client, "load-position").await?;
    wait_idle(client).await?;
    click_pit(client, "S", 15).await?;
    wait_idle(client).await?;
    click(client, "choice-take").await?;
    wait_idle(client).await?;
    let status = shown(client).await?["status"].as_str().unwrap().to_string();
    assert_eq!(
        status,
        "Game over: North's last seed can never be captured, nor capture: no seed can change hands again, \
         a draw (had the seeds been counted, as some players end such games, South would have won, 5 seeds to 1)"
    );
    let bar = bar_text(client).await?;
    assert!(
        bar.starts_with("Game over: South wins 0% \u{b7} draw 100%"),
        "{bar}"
    );
    screenshot(client, "dead-position.png").await
}

/// The person ends the game: a draw offered at the women's start, which South wins by
/// force, is accepted by the engine (North); taken back, the game goes on; a
/// resignation ends it.
async fn a_draw_agreed_and_a_resignation(client: &Client) -> TestResult {
    set_value(client, "variant", "isolo-women").await?;
    set_value(client, "side", "S").await?;
    click(client, "new-game").await?;
    wait_idle(client).await?;
    click(client, "offer-draw").await?;
    wait_idle(client).await?;
    let status = shown(client).await?["status"].as_str().unwrap().to_string();
    assert!(
        status.starts_with("Game over: The engine accepts your draw offer (its chances: win ")
            && status.ends_with("): a draw by agreement"),
        "{status}"
    );
    click_pit(client, "S", 1).await?;
    wait_idle(client).await?;
    let message = script(
        client,
        "return document.getElementById('message').textContent",
    )
    .await?;
    assert!(
        message
            .as_str()
            .unwrap()
            .starts_with("The game is over: The engine accepts"),
        "{message}"
    );
    click(client, "undo").await?;
    wait_idle(client).await?;
    let status = shown(client).await?["status"].as_str().unwrap().to_string();
    assert!(!status.starts_with("Game over"), "{status}");
    click(client, "resign").await?;
    wait_idle(client).await?;
    let status = shown(client).await?["status"].as_str().unwrap().to_string();
    assert_eq!(status, "Game over: South resigns: North wins");
    click(client, "new-game").await?;
    wait_idle(client).await
}

/// How to play: the rules in plain words, and an example move animated, after which the
/// game on the board is back.
async fn how_to_play(client: &Client, server: &Server) -> TestResult {
    let women = Variant::load("isolo-women").unwrap();
    client.goto(&server.url).await?;
    wait_idle(client).await?;
    set_value(client, "variant", "isolo-women").await?;
    wait_idle(client).await?;
    set_value(client, "speed", "100").await?;
    script(client, "document.getElementById('how-to-play').open = true").await?;
    let rules = script(
        client,
        "return [...document.querySelectorAll('#how-to-play-list li')].map(li => li.textContent)",
    )
    .await?;
    let rules: Vec<&str> = rules
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(
        rules.len() >= 5 && rules.iter().any(|l| l.contains("always taken")),
        "{rules:?}"
    );
    click(client, "example-move").await?;
    wait_idle(client).await?;
    let caption = caption_text(client).await?;
    assert!(caption.starts_with("An example: "), "{caption}");
    check_board(client, &women).await?;
    Ok(())
}

/// On a clock both sides' clocks are shown, and a person's flag falls while they think.
async fn clocks_and_a_flag_fall(client: &Client, server: &Server) -> TestResult {
    client.goto(&server.url).await?;
    wait_idle(client).await?;
    set_value(client, "variant", "isolo-women").await?;
    wait_idle(client).await?;
    set_value(client, "strength", "tc:60+1").await?;
    click(client, "new-game").await?;
    wait_idle(client).await?;
    let clocks = script(
        client,
        "return document.getElementById('clocks').textContent",
    )
    .await?;
    let clocks = clocks.as_str().unwrap_or_default().to_string();
    // The clocks start with the first move.
    assert_eq!(clocks, "South 1:00.0 \u{b7} North 1:00.0");
    let status = shown(client).await?["status"].as_str().unwrap().to_string();
    assert!(
        status.ends_with("the clocks start with the first move"),
        "{status}"
    );
    // A clock of one second, which the page does not offer: South moves, and North's
    // flag falls while North thinks.
    script(
        client,
        "const o = document.createElement('option');
         o.value = 'tc:1+0'; o.textContent = '1 s';
         document.getElementById('strength').appendChild(o);
         document.getElementById('strength').value = 'tc:1+0';
         document.getElementById('side').value = 'both';
         document.getElementById('side').dispatchEvent(new Event('change'));
         document.getElementById('new-game').click();",
    )
    .await?;
    wait_idle(client).await?;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let clocks = shown(client).await?["clocks"].as_str().unwrap().to_string();
    assert_eq!(clocks, "South 0:01.0 \u{b7} North 0:01.0", "nobody moved");
    click_pit(client, "S", 1).await?;
    wait_idle(client).await?;
    tokio::time::sleep(Duration::from_millis(1600)).await;
    let status = shown(client).await?["status"].as_str().unwrap().to_string();
    assert_eq!(
        status,
        "Game over: North's clock ran out: South wins on time"
    );
    // The bar follows the result the flag gave, not the chances before it.
    let bar = bar_text(client).await?;
    assert!(bar.starts_with("Game over: South wins 100%"), "{bar}");
    click_pit(client, "S", 1).await?;
    let message = shown(client).await?["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(message.contains("a clock ran out"), "{message}");
    Ok(())
}

/// The review of the game just played: each side's accuracy, a mark on the move list
/// for every move the review calls an inaccuracy, mistake or blunder, the graph in
/// percent, and a click on a marked move shows the better move, animated, after which
/// the board shows the position it was played from.
async fn opens_the_review(client: &Client, moves: &[String]) -> TestResult {
    let women = Variant::load("isolo-women").unwrap();
    click(client, "review-game").await?;
    wait_idle(client).await?;
    let review = script(
        client,
        "return {
            summary: document.getElementById('review-summary').textContent,
            moves: document.querySelectorAll('#movelist li').length,
            marked: [...document.querySelectorAll('#movelist li')]
                .filter(li => /mark-/.test(li.className)).map(li => Number(li.dataset.ply)),
            notes: [...document.querySelectorAll('#review-notes li')].map(li => Number(li.dataset.ply)),
            dots: document.querySelectorAll('#graph circle.mark').length,
            line: document.querySelector('#graph polyline') !== null,
            bar: document.getElementById('evalbar-text').textContent,
            button: document.getElementById('review-game').hidden,
        }",
    )
    .await?;
    let summary = review["summary"].as_str().unwrap();
    assert!(summary.starts_with("Accuracy: South "), "{review}");
    assert_eq!(review["moves"], moves.len(), "{review}");
    assert_eq!(
        review["marked"].as_array().unwrap().len(),
        review["dots"].as_u64().unwrap() as usize
    );
    assert!(
        review["line"] == true && review["button"] == true,
        "{review}"
    );
    assert!(
        review["bar"].as_str().unwrap().contains("South wins"),
        "{review}"
    );
    screenshot(client, "review.png").await?;
    let smallest = smallest_text(client).await?;
    assert!(
        smallest.0 >= 12.0,
        "the review's text at least 12 px: {smallest:?}"
    );
    let gap = script(
        client,
        "return document.getElementById('review-notes').getBoundingClientRect().top
              - document.getElementById('graph').getBoundingClientRect().bottom;",
    )
    .await?;
    assert!(
        gap.as_f64().unwrap() < 40.0,
        "the notes under the graph: {gap}"
    );
    let Some(ply) = review["marked"]
        .as_array()
        .unwrap()
        .first()
        .and_then(Value::as_u64)
    else {
        eprintln!("the review marked no move: {summary}");
        return Ok(());
    };
    script(
        client,
        &format!("document.querySelector('#movelist li[data-ply=\"{ply}\"]').click()"),
    )
    .await?;
    wait_idle(client).await?;
    let caption = caption_text(client).await?;
    assert!(caption.starts_with("Better than "), "{caption}");
    let page = shown(client).await?;
    assert_eq!(
        page["position"],
        applied(&women, women.name(), &moves[..ply as usize - 1]),
        "back at the position the move was played from"
    );
    Ok(())
}

/// The smallest text shown on the page outside the board's drawing, in CSS pixels, and
/// the text that has it.
async fn smallest_text(client: &Client) -> TestResult<(f64, String)> {
    let found = script(
        client,
        "let least = [1000, ''];
         for (const e of document.querySelectorAll('body *:not(svg, svg *)')) {
           if (e.offsetParent === null) continue;
           const own = [...e.childNodes].filter((n) => n.nodeType === 3)
             .map((n) => n.textContent.trim()).join('');
           if (!own) continue;
           const size = parseFloat(getComputedStyle(e).fontSize);
           if (size < least[0]) least = [size, own.slice(0, 40)];
         }
         return least;",
    )
    .await?;
    Ok((found[0].as_f64().unwrap(), found[1].to_string()))
}

/// A phone's screen, in CSS pixels.
const PHONE: (u32, u32) = (390, 844);

async fn scenario(client: &Client, server: &Server) -> TestResult {
    let moves = play_a_game_by_clicks(client, server, true).await?;
    eprintln!("game by clicks: {} plies: {}", moves.len(), moves.join(" "));
    move_list_undo_redo(client, &moves).await?;
    catch_a_relay(client).await?;
    how_to_play(client, server).await?;
    clocks_and_a_flag_fall(client, server).await?;
    fits_a_phone_on_its_side(client, server).await?;
    fits_a_phone(client, server).await?;
    // Decisions on the phone's screen.
    choose_take_then_pass(client).await?;
    choose_a_clockwise_lap(client).await?;
    a_clockwise_capture_and_a_retreat(client).await?;
    cancel_takes_a_move_back(client).await?;
    you_answer_the_engines_pass(client).await?;
    a_dead_position_ends_the_game(client).await?;
    a_draw_agreed_and_a_resignation(client).await?;
    let moves = play_a_game_by_clicks(client, server, false).await?;
    eprintln!("game by clicks on a phone: {} plies", moves.len());
    opens_the_review(client, &moves).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium and ChromeDriver (tests/browser/setup.sh, as root); .ci/run runs it"]
async fn the_page_plays_a_game_by_clicks_in_chromium() {
    let status = Command::new("tests/browser/setup.sh")
        .status()
        .expect("setup.sh runs");
    assert!(status.success(), "Chromium and ChromeDriver are installed");
    let server = Server::start(&["--max-time-ms", "3000"]);
    let driver = Driver::start();
    let profile = std::env::temp_dir().join(format!("isolo-ai-chromium-{}", std::process::id()));
    let client = connect(&driver, &profile)
        .await
        .expect("a WebDriver session");
    let outcome = scenario(&client, &server).await;
    // End the session (and the browser) before judging, pass or fail.
    let closed = client.close().await;
    drop(driver);
    let _ = std::fs::remove_dir_all(&profile);
    if std::env::var_os("ISOLO_SCREENSHOTS").is_none() {
        let _ = std::fs::remove_dir_all(screenshot_dir());
    }
    if let Err(e) = outcome {
        panic!("{e}");
    }
    closed.expect("the WebDriver session ends");
}
