use super::*;

#[test]
fn strips_bom_and_trailing_nul_with_warnings() {
    let mut w = Vec::new();
    let t = clean_text(b"\xef\xbb\xbf<robot name=\"r\"/>\r\n\0", &mut w).unwrap();
    assert_eq!(t, "<robot name=\"r\"/>");
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[1].contains("NUL"), "{w:?}");
}

#[test]
fn invalid_utf8_says_where() {
    let mut w = Vec::new();
    let e = clean_text(b"<robot>\xff</robot>", &mut w).unwrap_err();
    assert!(e.to_string().starts_with("byte 7:"), "{e}");
}

#[test]
fn deep_nesting_is_rejected_before_parsing() {
    let deep = format!(
        "<robot name=\"r\">{}{}</robot>",
        "<a>".repeat(100_000),
        "</a>".repeat(100_000)
    );
    let e = check_nesting(&deep, 1000).unwrap_err();
    assert!(e.to_string().contains("max_depth"), "{e}");
    let flat =
        "<robot name=\"r\"><!-- <a><a> --><link name=\"a>b\"/><link name='x'></link></robot>";
    assert!(check_nesting(flat, 2).is_ok());
    assert!(check_nesting(flat, 1).is_err());
}

#[test]
fn parser_errors_are_errors() {
    assert!(matches!(
        parse_robot("<robot name=\"x\"><link"),
        Err(UrdfError::Parse { .. })
    ));
}
