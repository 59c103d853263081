//! Reading HTML without the parser: tag names, plain tags, entities. Shared by the
//! sanitiser's fast path and the fast path of HTML to text (D160).

/// HTML whitespace inside tags (the tokenizer's; CR reads as LF).
pub(super) fn is_html_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
}

/// The lowercase name of the tag starting at `at` (`<name` or `</name`), whether it is
/// an end tag, and where the name ends; `None` unless the name is ASCII letters and
/// digits and ends where the tokenizer ends it (whitespace, '/' or '>').
pub(super) fn tag_name(html: &str, at: usize) -> Option<(String, bool, usize)> {
    let bytes = html.as_bytes();
    let mut i = at + 1;
    let end = bytes.get(i) == Some(&b'/');
    if end {
        i += 1;
    }
    if !bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    let name_start = i;
    while bytes.get(i).is_some_and(u8::is_ascii_alphanumeric) {
        i += 1;
    }
    let name = html[name_start..i].to_ascii_lowercase();
    let ended = bytes
        .get(i)
        .is_some_and(|&b| is_html_space(b) || b == b'/' || b == b'>');
    ended.then_some((name, end, i))
}

/// The lowercase name of the start or end tag at `at` and where it ends, when it is a
/// plain tag: a name of ASCII letters and digits, attributes as the HTML tokenizer
/// reads them (quoted values may hold '>'), and a closing `>`. A '<' inside the tag
/// outside quotes is left to the parser: the block-boundary spaces would split it.
pub(super) fn simple_tag(html: &str, at: usize) -> Option<(String, usize)> {
    let bytes = html.as_bytes();
    let space = |i: usize| bytes.get(i).is_some_and(|&b| is_html_space(b));
    let (name, _, mut i) = tag_name(html, at)?;
    loop {
        match *bytes.get(i)? {
            b'>' => return Some((name, i + 1)),
            b'<' => return None,
            b'/' => i += 1,
            _ if space(i) => i += 1,
            _ => {
                // An attribute name (its first character may be '=').
                i += 1;
                while let Some(&b) = bytes.get(i) {
                    match b {
                        b'/' | b'>' | b'=' => break,
                        b'<' => return None,
                        _ if is_html_space(b) => break,
                        _ => i += 1,
                    }
                }
                while space(i) {
                    i += 1;
                }
                if bytes.get(i) != Some(&b'=') {
                    continue;
                }
                i += 1;
                while space(i) {
                    i += 1;
                }
                match *bytes.get(i)? {
                    quote @ (b'"' | b'\'') => i += 1 + bytes[i + 1..].iter().position(|&b| b == quote)? + 1,
                    b'>' => {}
                    _ => {
                        while let Some(&b) = bytes.get(i) {
                            match b {
                                b'>' => break,
                                b'<' => return None,
                                _ if is_html_space(b) => break,
                                _ => i += 1,
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The character a common entity at the start of `text` stands for, and its length;
/// `&` before anything but a letter, digit or '#' is a plain '&'. `None` for entities
/// outside the short list (the parser knows two thousand).
pub(super) fn simple_entity(text: &str) -> Option<(char, usize)> {
    let rest = &text[1..];
    if !rest
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'#')
    {
        return Some(('&', 1));
    }
    let end = rest.bytes().take(12).position(|b| b == b';')?;
    let name = &rest[..end];
    let c = match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{a0}',
        _ => {
            let (digits, radix) = match name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
                Some(hex) => (hex, 16),
                None => (name.strip_prefix('#')?, 10),
            };
            if digits.is_empty() || digits.len() > 8 || !digits.chars().all(|c| c.is_digit(radix)) {
                return None;
            }
            let code = u32::from_str_radix(digits, radix).ok()?;
            // Where the parser substitutes or warns (NUL, C0/C1 controls, surrogates,
            // noncharacters), leave it to the parser.
            let plain = matches!(code, 0x09 | 0x0a | 0x20..=0x7e | 0xa0..=0xd7ff | 0xe000..=0xfdcf | 0xfdf0..=0x10ffff)
                && code & 0xfffe != 0xfffe;
            if !plain {
                return None;
            }
            char::from_u32(code)?
        }
    };
    Some((c, end + 2))
}

/// Decode the entities an HTML serializer emits, plus numeric ones.
pub fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let end = after.find(';').filter(|&e| e <= 10);
        let decoded = end.and_then(|e| {
            let name = &after[..e];
            let ch = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" | "#39" => Some('\''),
                "nbsp" => Some(' '),
                _ => name
                    .strip_prefix("#x")
                    .or_else(|| name.strip_prefix("#X"))
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .or_else(|| name.strip_prefix('#').and_then(|d| d.parse().ok()))
                    .and_then(char::from_u32),
            };
            ch.map(|c| (c, e))
        });
        match decoded {
            Some((c, e)) => {
                out.push(c);
                rest = &after[e + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}
