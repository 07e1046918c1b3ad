use super::*;

#[test]
fn octahedron_faces_point_outwards() {
    let a = Vector3::new(0.1, 0.2, 0.3);
    let b = Vector3::new(0.4, -0.5, 0.9);
    let c = octahedron(a, b).unwrap();
    let centre = (a + b) / 2.0;
    for i in 0..4usize {
        let (r0, r1) = (1 + i, 1 + (i + 1) % 4);
        for [p, q, r] in [[0, r1, r0], [5, r0, r1]] {
            let n = (c[q] - c[p]).cross(&(c[r] - c[p]));
            assert!(
                n.dot(&(c[p] - centre)) > 0.0,
                "face {p} {q} {r} points inwards"
            );
        }
    }
    assert!(octahedron(a, a).is_none());
}
