use super::*;

#[test]
fn replaces_the_file_and_leaves_no_temporary() {
    let dir = std::env::temp_dir().join(format!("flinch-atomic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a.txt");
    write_atomic(&path, b"first").unwrap();
    write_atomic(&path, b"second").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"second");
    let failed: std::io::Result<()> = write_atomic_with(&path, |w| {
        w.write_all(b"partial")?;
        Err(std::io::Error::other("refused"))
    });
    assert!(failed.is_err());
    assert_eq!(std::fs::read(&path).unwrap(), b"second");
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn stale_temporaries_of_dead_processes_are_removed() {
    let dir = std::env::temp_dir().join(format!("flinch-stale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    assert_eq!(temporary_pid(".a.bvh.123.4.tmp"), Some(123));
    assert_eq!(temporary_pid(".tmp"), None);
    assert_eq!(temporary_pid("a.bvh.123.4.tmp"), None);
    // A pid above Linux's maximum (2^22) never runs.
    let dead = dir.join(".out.bvh.4294967295.0.tmp");
    let ours = dir.join(format!(".out.bvh.{}.7.tmp", std::process::id()));
    let other = dir.join("out.bvh");
    for p in [&dead, &ours, &other] {
        std::fs::write(p, b"x").unwrap();
    }
    let removed = remove_stale_temporaries(&dir);
    if Path::new("/proc/self").exists() {
        assert_eq!(removed, 1);
        assert!(!dead.exists());
    }
    assert!(ours.exists() && other.exists());
    assert!(same_file(&other, &dir.join(".").join("out.bvh")));
    assert!(!same_file(&other, &ours));
    std::fs::remove_dir_all(&dir).unwrap();
}
