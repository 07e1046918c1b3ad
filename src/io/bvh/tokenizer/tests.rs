use super::*;

#[test]
fn tracks_lines_across_mixed_endings_and_bom() {
    let src = b"\xEF\xBB\xBFHIERARCHY\r\nROOT a:b\rX\n\t  {  \n\0\0";
    let mut c = Cursor::new(src);
    let t = c.next_token().unwrap();
    assert_eq!((t.text, t.line, t.column), (&b"HIERARCHY"[..], 1, 1));
    let t = c.next_token().unwrap();
    assert_eq!((t.line, t.column), (2, 1));
    let t = c.next_token().unwrap();
    assert_eq!((t.text, t.line, t.column), (&b"a:b"[..], 2, 6));
    let t = c.next_token().unwrap();
    assert_eq!((t.text, t.line, t.column), (&b"X"[..], 3, 1));
    let t = c.next_token().unwrap();
    assert_eq!((t.text, t.line, t.column), (&b"{"[..], 4, 4));
    assert!(c.next_token().is_none());
}

#[test]
fn lines_and_words() {
    let mut c = Cursor::new(b"1 2\t 3 \r\n\n  4");
    let l = c.take_line().unwrap();
    let w: Vec<_> = l.words().collect();
    assert_eq!(w.len(), 3);
    assert_eq!(l.column(w[2].0), 6);
    assert!(c.take_line().unwrap().is_blank());
    let l = c.take_line().unwrap();
    assert_eq!(l.line, 3);
    assert!(c.take_line().is_none());
}

#[test]
fn columns_count_characters() {
    let mut c = Cursor::new("é x".as_bytes());
    c.next_token();
    assert_eq!(c.next_token().unwrap().column, 3);
}
