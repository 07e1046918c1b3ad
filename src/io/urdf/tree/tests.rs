use super::*;
use crate::io::urdf::text::parse_robot;

fn robot(joints: &[(&str, &str, &str)], links: &[&str]) -> Robot {
    let mut s = String::from("<robot name=\"t\">");
    for l in links {
        s += &format!("<link name=\"{l}\"/>");
    }
    for (n, p, c) in joints {
        s += &format!(
            "<joint name=\"{n}\" type=\"fixed\"><parent link=\"{p}\"/><child link=\"{c}\"/></joint>"
        );
    }
    s += "</robot>";
    parse_robot(&s).unwrap()
}

#[test]
fn orders_parents_first_depth_first() {
    // Links listed leaf first; joints listed out of order.
    let r = robot(
        &[("j2", "b", "c"), ("j1", "a", "b"), ("j3", "a", "d")],
        &["c", "b", "a", "d"],
    );
    let o = tree_order(&r).unwrap();
    let names: Vec<&str> = o.links.iter().map(|&i| r.links[i].name.as_str()).collect();
    assert_eq!(names, ["a", "b", "c", "d"]);
    assert_eq!(o.parents, [None, Some(0), Some(1), Some(0)]);
}

#[test]
fn rejects_bad_graphs_with_names() {
    let e =
        |j: &[(&str, &str, &str)], l: &[&str]| tree_order(&robot(j, l)).unwrap_err().to_string();
    assert!(e(&[("j", "a", "x")], &["a"]).contains("joint 'j': child link 'x' does not exist"));
    assert!(e(&[], &["a", "b"]).contains("2 root links ('a', 'b')"));
    assert!(e(&[("j1", "a", "b"), ("j2", "b", "a")], &["a", "b"]).contains("cycle"));
    assert!(
        e(
            &[("j1", "r", "a"), ("j2", "a", "b"), ("j3", "b", "a")],
            &["r", "a", "b"]
        )
        .contains("two joints")
    );
    assert!(
        e(
            &[("j1", "a", "b"), ("j2", "b", "c"), ("j3", "c", "b")],
            &["a", "b", "c"]
        )
        .contains("two joints")
    );
    assert!(e(&[], &["a", "a"]).contains("link 'a': duplicate link name"));
    assert!(e(&[("j", "a", "a")], &["a"]).contains("its own parent"));
}

#[test]
fn detached_cycle_is_reported() {
    let o = tree_order(&robot(
        &[("j1", "b", "c"), ("j2", "c", "b")],
        &["a", "b", "c"],
    ));
    assert!(
        o.unwrap_err()
            .to_string()
            .contains("not reachable from the root 'a'")
    );
}
