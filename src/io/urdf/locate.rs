//! Where a parse error is: `urdf_rs` reports XML syntax errors with a line and column, but nesting errors,
//! truncation and bad attribute values come without one. These helpers find the place in the text so every
//! error can say where.

/// 1-based line and column (in characters) of byte offset `at` in `text`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Best-effort location of the error `message` (from `urdf_rs`) in `text`.
pub(crate) fn locate(text: &str, message: &str) -> Option<(usize, usize)> {
    syntax_position(message)
        .or_else(|| quoted_value(text, message))
        .or_else(|| unparsable_number(text, message))
        .or_else(|| missing_field(text, message))
        .or_else(|| duplicate_field(text, message))
        .or_else(|| nesting_error(text))
}

/// XML syntax errors carry `Syntax: <line>:<col>` or `Line: <line>, Column: <col>`.
fn syntax_position(message: &str) -> Option<(usize, usize)> {
    if let Some((_, rest)) = message.split_once("Line: ") {
        let (line, rest) = rest.split_once(", Column: ")?;
        let col: String = rest.chars().take_while(char::is_ascii_digit).collect();
        return Some((line.trim().parse().ok()?, col.parse().ok()?));
    }
    let rest = message.split("Syntax: ").nth(1)?;
    let (line, rest) = rest.split_once(':')?;
    let col: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((line.trim().parse().ok()?, col.parse().ok()?))
}

/// serde-xml-rs value errors quote the offending value: `... for [0 S 0]`, `unknown variant `hinge``.
fn quoted_value(text: &str, message: &str) -> Option<(usize, usize)> {
    let value = if let Some((_, rest)) = message.split_once(" for [") {
        rest.strip_suffix(']')?
    } else if let Some((_, rest)) = message.split_once("found Characters(") {
        // Character data where an element or end tag was expected.
        return text_node(text, rest.strip_suffix(')')?.trim()).map(|at| line_col(text, at));
    } else {
        let (_, rest) = message.split_once("unknown variant `")?;
        // The value itself may contain a backtick: cut at serde's "`, expected" when present.
        rest.split_once("`, expected")
            .or_else(|| rest.split_once('`'))?
            .0
    };
    [format!("\"{value}\""), format!("'{value}'")]
        .iter()
        .find_map(|quoted| text.find(quoted.as_str()).map(|at| at + 1))
        // An unknown geometry variant is an element name (`<cone .../>`), not an attribute value.
        .or_else(|| {
            tags(text)
                .find(|t| !t.closing && t.name == value)
                .map(|t| t.at)
        })
        // Stray character data where an element is expected is reported as a variant named by the text.
        .or_else(|| text_node(text, value))
        .map(|at| line_col(text, at))
}

/// Byte offset of the first character-data run between tags whose trimmed content is `value`.
fn text_node(text: &str, value: &str) -> Option<usize> {
    let mut prev_end = 0;
    for tag in tags(text) {
        let between = text.get(prev_end..tag.at)?;
        if between.trim() == value {
            let lead = between.len() - between.trim_start().len();
            return Some(prev_end + lead);
        }
        prev_end = tag.at + tag.body.len() + 2;
    }
    None
}

/// Attributes urdf_rs reads as one number.
const NUMERIC: &[&str] = &[
    "value", "ixx", "ixy", "ixz", "iyy", "iyz", "izz", "radius", "length", "lower", "upper",
    "effort", "velocity", "damping", "friction",
];

/// "invalid float literal" has no value in it: find the first numeric attribute that does not parse.
fn unparsable_number(text: &str, message: &str) -> Option<(usize, usize)> {
    if !message.contains("float") {
        return None;
    }
    // Attributes are read tag by tag, so a stray quote in character data cannot shift the pairing.
    tags(text)
        .find_map(|tag| {
            attributes(tag.body)
                .find(|(name, value, _)| {
                    NUMERIC.contains(name) && value.trim().parse::<f64>().is_err()
                })
                .map(|(_, _, at)| tag.at + 1 + at)
        })
        .map(|at| line_col(text, at))
}

/// Which elements require a field (attribute or child element) that serde reports as `missing field `x``.
fn required_by(field: &str) -> &'static [&'static str] {
    match field {
        "parent" | "child" | "type" => &["joint"],
        "name" => &["link", "joint", "material"],
        "mass" | "inertia" => &["inertial"],
        "geometry" => &["visual", "collision"],
        "size" => &["box"],
        "radius" => &["sphere", "cylinder", "capsule"],
        "length" => &["cylinder", "capsule"],
        "filename" => &["mesh", "texture"],
        "xyz" => &["axis"],
        "velocity" => &["limit"],
        "link" => &["parent", "child"],
        "value" => &["mass"],
        "ixx" | "ixy" | "ixz" | "iyy" | "iyz" | "izz" => &["inertia"],
        "rgba" => &["color"],
        "joint" => &["mimic"],
        "k_velocity" => &["safety_controller"],
        _ => &[],
    }
}

/// `missing field `x``: the first element that needs `x` and has it neither as attribute nor as child.
fn missing_field(text: &str, message: &str) -> Option<(usize, usize)> {
    let (_, rest) = message.split_once("missing field `")?;
    let field = rest.split_once('`')?.0;
    let owners = required_by(field);
    let mut open: Vec<(usize, bool)> = Vec::new(); // (offset, has the field) of open owner elements
    for tag in tags(text) {
        if tag.closing {
            if owners.contains(&tag.name) {
                match open.pop() {
                    Some((at, false)) => return Some(line_col(text, at)),
                    Some(_) => {}
                    None => return None,
                }
            }
            continue;
        }
        if let Some(last) = open.last_mut() {
            // A direct or nested child with the field's name counts (serde only looks at direct children,
            // but URDF never nests these names deeper).
            last.1 |= tag.name == field;
        }
        if owners.contains(&tag.name) {
            let has = attributes(tag.body).any(|(name, _, _)| name == field);
            if tag.self_closing {
                if !has {
                    return Some(line_col(text, tag.at));
                }
            } else {
                open.push((tag.at, has));
            }
        }
    }
    open.first().map(|&(at, _)| line_col(text, at))
}

/// `duplicate field `x``: the first `<x>` that has an earlier `<x>` sibling.
fn duplicate_field(text: &str, message: &str) -> Option<(usize, usize)> {
    let (_, rest) = message.split_once("duplicate field `")?;
    let field = rest.split_once('`')?.0;
    // For every open element: how many direct `<field>` children it has had so far.
    let mut open: Vec<usize> = vec![0];
    for tag in tags(text) {
        if tag.closing {
            open.pop();
            continue;
        }
        if tag.name == field {
            let seen = open.last_mut()?;
            if *seen > 0 {
                return Some(line_col(text, tag.at));
            }
            *seen += 1;
        }
        if !tag.self_closing {
            open.push(0);
        }
    }
    None
}

/// One start, end or empty-element tag.
struct Tag<'a> {
    name: &'a str,
    /// The text between `<` and `>` (to the end of the text when unterminated).
    body: &'a str,
    /// Byte offset of the `<`.
    at: usize,
    closing: bool,
    self_closing: bool,
    /// No closing `>` (or comment/declaration end): the last item the iterator yields.
    unterminated: bool,
}

/// The element tags of `text` in order (comments, declarations and CDATA skipped). An unterminated tag, comment
/// or declaration is yielded once with `unterminated` set, and ends the iteration.
fn tags(text: &str) -> impl Iterator<Item = Tag<'_>> {
    let mut rest_at = Some(0);
    std::iter::from_fn(move || {
        loop {
            let from = rest_at?;
            let at = from + text.get(from..)?.find('<')?;
            let tail = text.get(at..)?;
            let cut = Tag {
                name: "",
                body: tail,
                at,
                closing: false,
                self_closing: false,
                unterminated: true,
            };
            let skip = [
                ("<!--", "-->"),
                ("<![CDATA[", "]]>"),
                ("<?", "?>"),
                ("<!", ">"),
            ]
            .iter()
            .find(|(open, _)| tail.starts_with(open));
            if let Some((_, close)) = skip {
                match tail.find(close) {
                    Some(e) => rest_at = Some(at + e + close.len()),
                    None => {
                        rest_at = None;
                        return Some(cut);
                    }
                }
                continue;
            }
            let Some(end) = tag_end(tail) else {
                rest_at = None;
                return Some(cut);
            };
            rest_at = Some(at + end + 1);
            let body = tail.get(1..end)?;
            let closing = body.starts_with('/');
            let name = body
                .trim_start_matches('/')
                .split(|c: char| c.is_whitespace() || c == '/')
                .next()
                .unwrap_or("");
            return Some(Tag {
                name,
                body,
                at,
                closing,
                self_closing: body.ends_with('/'),
                unterminated: false,
            });
        }
    })
}

/// `(name, value, byte offset of the value)` of every `name = "value"` attribute in the body of one tag.
fn attributes(text: &str) -> impl Iterator<Item = (&str, &str, usize)> {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let quote = *bytes.get(i)?;
            if quote != b'"' && quote != b'\'' {
                i += 1;
                continue;
            }
            let start = i + 1;
            let end = start + text.get(start..)?.find(quote as char)?;
            // The attribute name: the identifier before `=` (spaces allowed around it).
            let head = text.get(..i)?.trim_end();
            let head = head.strip_suffix('=')?.trim_end();
            let name_start = head
                .rfind(|c: char| c.is_whitespace() || c == '<')
                .map_or(0, |p| p + 1);
            i = end + 1;
            return Some((head.get(name_start..)?, text.get(start..end)?, start));
        }
        None
    })
}

/// A tag-balance scan: the first malformed tag (a `<` inside it, junk after an end tag's name, no closing `>`),
/// the first end tag that does not match the open element, or, when elements are still open at the end or none
/// was found, the end of the text (truncation).
fn nesting_error(text: &str) -> Option<(usize, usize)> {
    let mut stack: Vec<&str> = Vec::new();
    let mut seen_element = false;
    for tag in tags(text) {
        let malformed = tag.unterminated
            || tag.body.contains('<')
            || (tag.closing && tag.body.trim_end() != format!("/{}", tag.name));
        if malformed {
            return Some(line_col(text, tag.at));
        }
        if tag.closing {
            if stack.pop() != Some(tag.name) {
                return Some(line_col(text, tag.at));
            }
        } else if !tag.self_closing {
            stack.push(tag.name);
        }
        seen_element = true;
    }
    (!stack.is_empty() || !seen_element).then(|| line_col(text, text.len()))
}

/// Byte index of the `>` ending the tag that starts `tail`, skipping quoted attribute values.
fn tag_end(tail: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (i, c) in tail.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '>') => return Some(i),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_mismatched_and_unclosed_tags() {
        let t = "<robot>\n  <link name=\"a>b\">\n  </joint>\n</robot>";
        assert_eq!(nesting_error(t), Some((3, 3)));
        let t = "<?xml version=\"1.0\"?>\n<robot>\n <!-- <x> -->\n <link name=\"a\"/>";
        assert_eq!(nesting_error(t), Some((4, 18)));
        assert_eq!(nesting_error("<robot>\n<link name=\"a"), Some((2, 1)));
        assert_eq!(nesting_error("<robot><link/></robot>"), None);
        assert_eq!(
            nesting_error("<robot><g></g/\n <o/></robot>"),
            Some((1, 11))
        );
        assert_eq!(nesting_error("<robot><!-- x"), Some((1, 8)));
        assert_eq!(nesting_error("<?xml version=\"1.0\"?>\n"), Some((2, 1)));
    }

    #[test]
    fn finds_quoted_and_numeric_values() {
        let t = "<robot>\n<joint type = \"hinge\"/>\n<mass value=\"1x\"/></robot>";
        assert_eq!(
            locate(t, "custom: unknown variant `hinge`, expected ..."),
            Some((2, 16))
        );
        assert_eq!(locate(t, "custom: invalid float literal"), Some((3, 14)));
        let t = "<robot>\" <x a=\"b\"/>\n<inertia ixx=\"1\" ixy=\"0-0\"/>";
        assert_eq!(locate(t, "custom: invalid float literal"), Some((2, 23)));
        assert_eq!(locate(t, "Syntax: 95:26 Invalid character"), Some((95, 26)));
        assert_eq!(
            locate(t, "Parse error; Line: 7, Column: 9, Reason: x"),
            Some((7, 9))
        );
        let t = "<robot>\n<joint name=\"a\" type=\"fixed\"><parent link=\"x\"/><child link=\"y\"/></joint>\n\
                 <joint name=\"b\" type=\"fixed\">\n<child link=\"z\"/></joint></robot>";
        assert_eq!(locate(t, "custom: missing field `parent`"), Some((3, 1)));
        assert_eq!(
            locate("<robot><link/></robot>", "custom: missing field `name`"),
            Some((1, 8))
        );
        let t = "<robot><joint><parent/></joint><joint><parent/>\n<parent/></joint></robot>";
        assert_eq!(locate(t, "custom: duplicate field `parent`"), Some((2, 1)));
        assert_eq!(
            locate(
                "<robot>\n <cone/></robot>",
                "unknown variant `cone`, expected"
            ),
            Some((2, 2))
        );
        assert_eq!(
            locate(
                "<j type=\"a`b\"/>",
                "unknown variant `a`b`, expected one of"
            ),
            Some((1, 10))
        );
        let t = "<robot><inertial>\n . <mass value=\"1\"/></inertial></robot>";
        assert_eq!(
            locate(
                t,
                "Expected token XmlEvent::EndElement { name, .. }, found Characters(.)"
            ),
            Some((2, 2))
        );
        assert_eq!(
            locate(
                "<robot><geometry>\n t</geometry></robot>",
                "unknown variant `t`, expected"
            ),
            Some((2, 2))
        );
    }
}
