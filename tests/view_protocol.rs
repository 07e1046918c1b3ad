//! `flinch view`'s protocol over real sockets (issue 40): connect, load, hit, frames; bad messages (malformed,
//! oversized, flooding) answered with an error while the session goes on; the token, `Host` and `Origin` checks;
//! recording and download; scrubbing; root policy, knock-down, throw and drag; a skinned rig served to the page and
//! its bone transforms in the frames. See docs/view.md.

mod common;
mod view_support;

use std::time::Duration;

use flinch::view_protocol::frame::{FLAG_PAUSED, Frame};
use nalgebra::{Point3, Quaternion, UnitQuaternion, Vector3};
use serde_json::Value;
use view_support::{Received, Server};

const T: Duration = Duration::from_secs(20);

fn is(v: &Value, ty: &str) -> bool {
    v["type"] == ty
}

/// World position of the middle of body `name`'s first capsule in `frame`, and the hips' position.
fn body_middle(scene: &Value, frame: &Frame, name: &str) -> (Vector3<f64>, Vector3<f64>) {
    let bodies = scene["characters"][0]["bodies"].as_array().expect("bodies");
    let b = bodies.iter().position(|b| b["name"] == name).expect("body");
    let c: Vec<f64> = bodies[b]["capsules"][0]
        .as_array()
        .expect("capsule")
        .iter()
        .map(|x| x.as_f64().expect("number"))
        .collect();
    let pose = |b: usize| {
        let p = frame.characters[0].sim[b].map(f64::from);
        (
            Vector3::new(p[0], p[1], p[2]),
            UnitQuaternion::from_quaternion(Quaternion::new(p[6], p[3], p[4], p[5])),
        )
    };
    let (p, q) = pose(b);
    let mid = Point3::new(
        (c[0] + c[3]) / 2.0,
        (c[1] + c[4]) / 2.0,
        (c[2] + c[5]) / 2.0,
    );
    (p + q * mid.coords, pose(0).0)
}

#[test]
fn connects_loads_hits_and_streams_frames() {
    let server = Server::start(&["--paused"]);
    let mut c = server.connect(None).expect("connect");
    let scene = c.wait_json(T, |v| is(v, "scene")).expect("scene message");
    assert_eq!(scene["version"], 1);
    let bodies = scene["characters"][0]["bodies"]
        .as_array()
        .expect("bodies")
        .len();
    assert!(bodies > 10, "{bodies} bodies");
    let frame = Frame::decode(&c.frame(T).expect("a frame")).expect("decodes");
    assert_eq!(frame.characters.len(), 1);
    assert_eq!(frame.characters[0].sim.len(), bodies);
    assert_eq!(frame.characters[0].ghost.len(), bodies);
    assert!(frame.header.flags & FLAG_PAUSED != 0);

    c.send(r#"{"type":"load","clip":0}"#);
    let scene = c
        .wait_json(T, |v| is(v, "scene"))
        .expect("scene after load");
    assert_eq!(scene["version"], 2);
    let frame = Frame::decode(&c.frame(T).expect("a frame")).expect("decodes");
    assert_eq!(frame.header.scene_version, 2);

    // At 1 s, a click on the right forearm along +X (the demo's ball's direction), 6.75 N·s.
    c.send(r#"{"type":"step","count":120}"#);
    let frame = loop {
        let f = Frame::decode(&c.frame(T).expect("a frame")).expect("decodes");
        if f.header.time > 0.99 {
            break f;
        }
    };
    let (forearm, _) = body_middle(&scene, &frame, "RightForeArm");
    let side = -Vector3::x();
    let origin = forearm + side * 2.0;
    let hit = format!(
        r#"{{"type":"hit","origin":[{},{},{}],"direction":[{},{},{}],"strength":6.75}}"#,
        origin.x, origin.y, origin.z, -side.x, -side.y, -side.z
    );
    c.send(&hit);
    let event = c
        .wait_json(T, |v| is(v, "event") && v["source"] == "click")
        .expect("hit event");
    assert_eq!(event["bone"], "RightForeArm", "{event}");
    c.send(r#"{"type":"step","count":60}"#);
    let mut peak: f64 = 0.0;
    let end = std::time::Instant::now() + T;
    while peak < 10.0 && std::time::Instant::now() < end {
        if let Some(Received::Json(v)) = c.next(Duration::from_millis(500))
            && is(&v, "plot")
        {
            for s in v["samples"].as_array().expect("samples") {
                for d in s["dev"].as_array().expect("dev") {
                    peak = peak.max(d.as_f64().expect("deg"));
                }
            }
        }
    }
    assert!(peak >= 10.0, "peak deviation {peak}°");
    let frame = Frame::decode(&c.frame(T).expect("a frame")).expect("decodes");
    assert_eq!(frame.header.click_hits, 1);
    assert!(
        (frame.header.time - 1.5).abs() < 1e-9,
        "{}",
        frame.header.time
    );
}

#[test]
fn bad_messages_are_refused_and_the_session_goes_on() {
    let server = Server::start(&["--paused"]);
    let mut c = server.connect(None).expect("connect");
    let expect_error = |c: &mut view_support::Client, send: &str, contains: &str| {
        c.send(send);
        let e = c
            .wait_json(T, |v| is(v, "error"))
            .unwrap_or_else(|| panic!("no error for {}", &send[..send.len().min(60)]));
        let text = e["message"].as_str().expect("message");
        assert!(text.contains(contains), "{text}");
    };
    expect_error(&mut c, "{not json", "malformed");
    expect_error(&mut c, r#"{"type":"teleport"}"#, "malformed");
    expect_error(
        &mut c,
        r#"{"type":"play","path":"/etc/passwd"}"#,
        "malformed",
    );
    expect_error(&mut c, r#"{"type":"time_scale","scale":1e9}"#, "invalid");
    expect_error(
        &mut c,
        r#"{"type":"hit","origin":[0,1,2],"direction":[0,0,0],"strength":1}"#,
        "nonzero",
    );
    expect_error(
        &mut c,
        r#"{"type":"knockdown","character":5}"#,
        "no character 5",
    );
    expect_error(&mut c, r#"{"type":"load","clip":3}"#, "no clip 3");
    let big = format!(r#"{{"type":"play","pad":"{}"}}"#, "x".repeat(3 << 19));
    expect_error(&mut c, &big, "refused");
    // A flood: 1500 messages at once; the first 1000 are read, then one error.
    for _ in 0..1500 {
        c.ws.write(tungstenite::Message::text(r#"{"type":"pause"}"#))
            .expect("write");
    }
    c.ws.flush().expect("flush");
    let e = c.wait_json(T, |v| is(v, "error")).expect("flood error");
    assert!(
        e["message"]
            .as_str()
            .expect("text")
            .contains("too many messages"),
        "{e}"
    );
    std::thread::sleep(Duration::from_millis(1100));
    c.send(r#"{"type":"stats"}"#);
    assert!(
        c.wait_json(T, |v| is(v, "stats")).is_some(),
        "session goes on"
    );
    assert!(c.frame(T).is_some(), "frames still come");
}

#[test]
fn requests_need_the_token_an_allowed_host_and_origin() {
    let server = Server::start(&["--paused"]);
    let host = server.host();
    let page = format!("/s/{}/", server.token);
    let (status, head, body) = server.get(&page, &host, &[]);
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&body).contains("flinch view"));
    assert!(head.contains("Content-Security-Policy"), "{head}");
    assert_eq!(
        server
            .get(&format!("{page}three.module.min.js"), &host, &[])
            .0,
        200
    );
    assert_eq!(server.get("/", &host, &[]).0, 403);
    assert_eq!(server.get("/s/0123456789abcdef/", &host, &[]).0, 403);
    assert_eq!(
        server.get(&page, "evil.example", &[]).0,
        403,
        "DNS rebinding"
    );
    assert_eq!(server.get(&page, "127.0.0.1:1", &[]).0, 403);
    assert_eq!(
        server.get(&format!("{page}../../etc/passwd"), &host, &[]).0,
        404
    );
    assert_eq!(
        server.get(&format!("{page}download/x.bvh"), &host, &[]).0,
        404
    );
    let ws_headers = [
        ("Upgrade", "websocket"),
        ("Connection", "Upgrade"),
        ("Sec-WebSocket-Version", "13"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ];
    let mut cross = ws_headers.to_vec();
    cross.push(("Origin", "http://evil.example"));
    assert_eq!(
        server.get(&format!("{page}ws"), &host, &cross).0,
        403,
        "cross-site"
    );
    assert_eq!(
        server.get("/s/wrong/ws", &host, &ws_headers).0,
        403,
        "wrong token"
    );
    assert!(server.connect(Some("http://evil.example")).is_err());
    let origin = format!("http://{host}");
    assert!(server.connect(Some(&origin)).is_ok());
}

#[test]
fn records_scrubs_and_switches_roots() {
    let server = Server::start(&[]);
    let mut c = server.connect(None).expect("connect");
    c.wait_json(T, |v| is(v, "scene")).expect("scene");
    c.send(r#"{"type":"record","on":true}"#);
    c.wait_json(T, |v| is(v, "status") && v["recording"] == true)
        .expect("recording");
    std::thread::sleep(Duration::from_millis(600));
    c.send(r#"{"type":"record","on":false}"#);
    let rec = c.wait_json(T, |v| is(v, "recorded")).expect("recorded");
    let files: Vec<String> = rec["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f.as_str().expect("name").to_string())
        .collect();
    assert!(files.iter().any(|f| f.ends_with(".bvh")) && files.iter().any(|f| f.ends_with(".glb")));
    for f in &files {
        let (status, _, body) = server.get(
            &format!("/s/{}/download/{f}", server.token),
            &server.host(),
            &[],
        );
        assert_eq!(status, 200);
        if f.ends_with(".bvh") {
            assert!(body.starts_with(b"HIERARCHY"), "{f}");
        } else {
            assert!(body.starts_with(b"glTF"), "{f}");
        }
    }

    // Scrub back to 0.2 s: paused there.
    c.send(r#"{"type":"scrub","time":0.2}"#);
    let status = c
        .wait_json(T, |v| is(v, "status") && v["paused"] == true)
        .expect("paused status");
    assert!(
        status["time"].as_f64().expect("time") <= 0.2 + 1e-9,
        "{status}"
    );
    let frame = Frame::decode(&c.frame(T).expect("frame")).expect("decodes");
    assert!(frame.header.time <= 0.2 + 1e-9);

    // An assisted root, a throw, a drag, then the knock-down: the balance machine leaves Tracking.
    c.send(r#"{"type":"root","character":0,"policy":"assisted","assist":0.8}"#);
    let s = c
        .wait_json(T, |v| {
            is(v, "status") && v["characters"][0]["policy"] == "assisted"
        })
        .expect("assisted");
    assert_eq!(s["characters"][0]["assist"], 0.8);
    c.send(r#"{"type":"throw","origin":[3,1.2,0],"direction":[-1,0,0],"speed":10}"#);
    c.send(r#"{"type":"drag","character":0,"body":3,"local":[0,0,0],"target":[0,1.5,0.5]}"#);
    c.send(r#"{"type":"step","count":2}"#);
    let frame = Frame::decode(&c.frame(T).expect("frame")).expect("decodes");
    assert_eq!(frame.balls.len(), 1, "the thrown ball");
    c.send(r#"{"type":"drag_end"}"#);
    c.send(r#"{"type":"knockdown","character":0}"#);
    c.send(r#"{"type":"step","count":240}"#);
    let e = c
        .wait_json(T, |v| is(v, "event") && v["kind"] == "state")
        .expect("a balance state event");
    assert_eq!(e["from"], "Tracking", "{e}");
}

/// The world transforms of a frame's bones as (position, rotation).
fn bone_poses(bones: &[[f32; 7]]) -> Vec<(Vector3<f64>, UnitQuaternion<f64>)> {
    bones
        .iter()
        .map(|b| {
            let b = b.map(f64::from);
            (
                Vector3::new(b[0], b[1], b[2]),
                UnitQuaternion::from_quaternion(Quaternion::new(b[6], b[3], b[4], b[5])),
            )
        })
        .collect()
}

/// The largest position (m) and rotation (°) difference between a frame's bones and a character's world
/// transforms.
fn bones_vs(bones: &[[f32; 7]], world: &[nalgebra::Isometry3<f64>]) -> (f64, f64) {
    let mut worst = (0.0f64, 0.0f64);
    for ((p, q), w) in bone_poses(bones).iter().zip(world) {
        worst.0 = worst.0.max((p - w.translation.vector).norm());
        worst.1 = worst.1.max(q.angle_to(&w.rotation).to_degrees());
    }
    worst
}

/// Paused frames until one at `time` (s).
fn frame_at(c: &mut view_support::Client, time: f64) -> Frame {
    let end = std::time::Instant::now() + T;
    while std::time::Instant::now() < end {
        let f = Frame::decode(&c.frame(T).expect("a frame")).expect("decodes");
        if (f.header.time - time).abs() < 1e-9 {
            return f;
        }
    }
    panic!("no frame at {time} s");
}

/// `flinch view --onto RobotExpressive.glb`: the rig (a GLB with a skin) is served to the page with the token
/// only, the scene message maps every skeleton joint to its glTF node, and the frames carry one world transform
/// per skeleton joint equal to `Character::world_transforms` of the same character built and stepped here (the
/// embedded walk retargeted onto the robot like `flinch view` does, the same click hit at 0.5 s): the simulated
/// bodies at their joints and the merged bones with the clip's local motion.
#[test]
fn a_skinned_rig_is_served_and_frames_carry_its_bone_transforms() {
    use flinch::control::{Character, CharacterConfig};
    use flinch::io::ImportOptions;
    use flinch::retarget::load_onto;
    use flinch::scene::{RayTarget, Scene};

    let Some(dir) = common::corpus_dir() else {
        eprintln!("SKIPPED: no corpus (RobotExpressive)");
        return;
    };
    let robot = dir.join("gltf/RobotExpressive_threejs_reexport.glb");
    let robot_arg = robot.to_str().expect("utf-8 path");
    let server = Server::start(&["--paused", "--onto", robot_arg]);
    let host = server.host();

    // The rig: its bytes with the token; 403 without or with a wrong one; only the indices that exist.
    let rig = format!("/s/{}/rig/0.glb", server.token);
    let (status, head, body) = server.get(&rig, &host, &[]);
    assert_eq!(status, 200, "{head}");
    assert!(head.contains("model/gltf-binary"), "{head}");
    assert_eq!(
        body,
        std::fs::read(&robot).expect("robot"),
        "the file's bytes"
    );
    assert_eq!(server.get("/rig/0.glb", &host, &[]).0, 403, "no token");
    assert_eq!(
        server
            .get("/s/0123456789abcdef0123456789abcdef/rig/0.glb", &host, &[])
            .0,
        403
    );
    assert_eq!(
        server.get(&rig, "evil.example", &[]).0,
        403,
        "DNS rebinding"
    );
    for other in ["rig/1.glb", "rig/00.glb", "rig/0.gltf", "rig/../0.glb"] {
        let path = format!("/s/{}/{other}", server.token);
        assert_eq!(server.get(&path, &host, &[]).0, 404, "{other}");
    }

    // The same character built here.
    let onto = load_onto(&robot, None, None, &ImportOptions::default()).expect("onto");
    let retargeted = onto.retargeted().expect("retarget");
    let mut config = CharacterConfig::default();
    config.preprocess.rate_hz = 120.0;
    let config = onto.performer_config(&config);
    let character =
        Character::new(onto.target.skeleton.clone(), retargeted.clip, &config).expect("character");
    let joints = character.skeleton().len();
    let h = character.step_size();
    let merged: Vec<usize> = (0..joints)
        .filter(|&j| {
            let model = character.model();
            model.bodies[model.body_of_joint[j]].skeleton_joint != j
        })
        .collect();
    assert!(!merged.is_empty(), "the robot has merged bones");
    let mut scene = Scene::new();
    let key = scene.add_character(character);

    let mut c = server.connect(None).expect("connect");
    let desc = c.wait_json(T, |v| is(v, "scene")).expect("scene message");
    assert_eq!(desc["protocol"], flinch::view_protocol::PROTOCOL_VERSION);
    assert_eq!(desc["rigs"][0]["url"], "rig/0.glb", "{}", desc["rigs"]);
    let skin = &desc["characters"][0]["skin"];
    assert_eq!(skin["rig"], 0);
    let nodes = skin["nodes"].as_array().expect("nodes");
    assert_eq!(nodes.len(), joints);
    assert!(nodes.iter().all(|n| n.is_u64()), "every joint is a node");
    assert_eq!(skin["rest"].as_array().expect("rest").len(), joints);

    let frame = frame_at(&mut c, 0.0);
    assert_eq!(frame.characters[0].bones.len(), joints);
    let world = scene.character(key).expect("c").world_transforms();
    let (dp, dq) = bones_vs(&frame.characters[0].bones, &world);
    assert!(dp < 1e-5 && dq < 1e-3, "at 0 s: {dp} m, {dq}°");

    // 0.5 s, then a 40 N·s click on the right forearm from the side it sticks out to, 0.25 s more.
    c.send(r#"{"type":"step","count":60}"#);
    for _ in 0..60 {
        scene.step(h).expect("step");
    }
    let frame = frame_at(&mut c, scene.time());
    let world = scene.character(key).expect("c").world_transforms();
    let (dp, dq) = bones_vs(&frame.characters[0].bones, &world);
    assert!(dp < 1e-5 && dq < 1e-3, "at 0.5 s: {dp} m, {dq}°");
    let (forearm, hips) = body_middle(&desc, &frame, "LowerArmR");
    let mut side = forearm - hips;
    side.y = 0.0;
    let side = side.normalize();
    let from = forearm + side * 2.0;
    let text = format!(
        r#"{{"type":"hit","origin":[{:.4},{:.4},{:.4}],"direction":[{:.4},0,{:.4}],"strength":40}}"#,
        from.x, from.y, from.z, -side.x, -side.z
    );
    let sent: Value = serde_json::from_str(&text).expect("json");
    let v3 = |v: &Value| {
        Vector3::new(
            v[0].as_f64().expect("x"),
            v[1].as_f64().expect("y"),
            v[2].as_f64().expect("z"),
        )
    };
    let (origin, dir) = (v3(&sent["origin"]), v3(&sent["direction"]).normalize());
    c.send(&text);
    let event = c
        .wait_json(T, |v| is(v, "event") && v["source"] == "click")
        .expect("hit event");
    let hit = scene
        .cast_ray(&origin, &dir, 200.0, u32::MAX)
        .expect("the ray meets the robot");
    let RayTarget::Character { body, bone, .. } = hit.target else {
        panic!("the ray met the level")
    };
    assert_eq!(event["bone"], bone.as_str(), "{event}");
    scene
        .character_mut(key)
        .expect("c")
        .apply_body_impulse(body, hit.point, dir * 40.0)
        .expect("impulse");
    c.send(r#"{"type":"step","count":30}"#);
    for _ in 0..30 {
        scene.step(h).expect("step");
    }
    let frame = frame_at(&mut c, scene.time());
    let character = scene.character(key).expect("c");
    let world = character.world_transforms();
    let (dp, dq) = bones_vs(&frame.characters[0].bones, &world);
    assert!(dp < 1e-5 && dq < 1e-3, "after the hit: {dp} m, {dq}°");
    // The hit moved the robot off its clip: the bones are the simulation's, not the clip's.
    let clip = character
        .animation_pose()
        .world_transforms(character.skeleton());
    let (_, off_clip) = bones_vs(&frame.characters[0].bones, &clip);
    assert!(off_clip > 1.0, "{off_clip}° off the clip after the hit");
    // The merged bones: their body's simulated frame with the clip's local motion.
    let merged_world: Vec<_> = merged.iter().map(|&j| world[j]).collect();
    let merged_bones: Vec<_> = merged
        .iter()
        .map(|&j| frame.characters[0].bones[j])
        .collect();
    let (dp, dq) = bones_vs(&merged_bones, &merged_world);
    assert!(dp < 1e-5 && dq < 1e-3, "merged bones: {dp} m, {dq}°");
    eprintln!(
        "skinned view: {joints} bones ({} merged), hit {bone}, {off_clip:.1}° off the clip",
        merged.len()
    );
}
