//! A plain PDF of lines of text on A4 pages, for attachments a tax office reads: one monospaced
//! font every reader has (Courier, one of the standard 14), so no font is embedded, and text in
//! WinAnsi, which holds Norwegian letters. Long lines are wrapped; pages follow as needed.

/// Points: A4, margins, and Courier 9 pt (each glyph 0.6 em wide).
const PAGE_WIDTH: u32 = 595;
const PAGE_HEIGHT: u32 = 842;
const MARGIN: u32 = 50;
const FONT_SIZE: u32 = 9;
const LEADING: u32 = 12;
/// Characters per line: (595 − 2 × 50) / (0.6 × 9).
pub const COLUMNS: usize = 91;
const LINES_PER_PAGE: usize = ((PAGE_HEIGHT - 2 * MARGIN) / LEADING) as usize;

/// A document being written, line by line.
#[derive(Debug, Default)]
pub struct TextPdf {
    lines: Vec<String>,
}

impl TextPdf {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `text`, wrapped at word boundaries to the page's width; a line break starts a line.
    pub fn line(&mut self, text: &str) {
        for part in text.split('\n') {
            self.wrapped(part);
        }
    }

    /// An empty line.
    pub fn gap(&mut self) {
        self.lines.push(String::new());
    }

    fn wrapped(&mut self, text: &str) {
        let mut rest: Vec<char> = text.chars().collect();
        while rest.len() > COLUMNS {
            // Break at the last space that fits, or mid-word for a word longer than a line.
            let cut = rest[..=COLUMNS]
                .iter()
                .rposition(|c| *c == ' ')
                .filter(|at| *at > 0)
                .unwrap_or(COLUMNS);
            self.lines.push(rest[..cut].iter().collect());
            let skip = usize::from(rest.get(cut) == Some(&' '));
            rest.drain(..cut + skip);
        }
        self.lines.push(rest.into_iter().collect());
    }

    /// The file's bytes.
    pub fn finish(self) -> Vec<u8> {
        let pages: Vec<&[String]> = if self.lines.is_empty() {
            vec![&[]]
        } else {
            self.lines.chunks(LINES_PER_PAGE).collect()
        };
        // Objects: 1 catalog, 2 page tree, 3 font, then a page and its content per page.
        let page_id = |i: usize| 4 + 2 * i;
        let mut objects: Vec<Vec<u8>> = Vec::new();
        objects.push(b"<< /Type /Catalog /Pages 2 0 R >>".to_vec());
        let kids: Vec<String> = (0..pages.len())
            .map(|i| format!("{} 0 R", page_id(i)))
            .collect();
        objects.push(
            format!(
                "<< /Type /Pages /Kids [{}] /Count {} >>",
                kids.join(" "),
                pages.len()
            )
            .into_bytes(),
        );
        objects.push(
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>"
                .to_vec(),
        );
        for (i, lines) in pages.iter().enumerate() {
            objects.push(
                format!(
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_WIDTH} {PAGE_HEIGHT}] \
                     /Resources << /Font << /F1 3 0 R >> >> /Contents {} 0 R >>",
                    page_id(i) + 1
                )
                .into_bytes(),
            );
            let mut content = format!(
                "BT /F1 {FONT_SIZE} Tf {LEADING} TL {MARGIN} {} Td\n",
                PAGE_HEIGHT - MARGIN - FONT_SIZE
            )
            .into_bytes();
            for line in *lines {
                content.push(b'(');
                content.extend(win_ansi(line));
                content.extend(b") Tj T*\n");
            }
            content.extend(b"ET");
            let mut stream = format!("<< /Length {} >>\nstream\n", content.len()).into_bytes();
            stream.extend(content);
            stream.extend(b"\nendstream");
            objects.push(stream);
        }
        let mut out = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n".to_vec();
        let mut offsets = Vec::with_capacity(objects.len());
        for (i, body) in objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend(format!("{} 0 obj\n", i + 1).into_bytes());
            out.extend(body);
            out.extend(b"\nendobj\n");
        }
        let xref = out.len();
        out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).into_bytes());
        for o in offsets {
            out.extend(format!("{o:010} 00000 n \n").into_bytes());
        }
        out.extend(
            format!(
                "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
                objects.len() + 1
            )
            .into_bytes(),
        );
        out
    }
}

/// `text` in WinAnsi inside a PDF string: the parentheses and backslash escaped, Latin-1
/// letters as themselves, a few typographic marks at their WinAnsi places, anything else `?`.
fn win_ansi(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '(' | ')' | '\\' => out.extend([b'\\', c as u8]),
            ' '..='~' => out.push(c as u8),
            '\u{a0}' | '\u{202f}' => out.push(b' '),
            '\u{a1}'..='\u{ff}' => out.push(c as u32 as u8),
            '\u{2212}' | '\u{2010}' | '\u{2011}' => out.push(b'-'),
            '\u{2013}' => out.push(0x96),
            '\u{2014}' => out.push(0x97),
            '\u{2026}' => out.push(0x85),
            '\u{2019}' => out.push(0x92),
            '\u{20ac}' => out.push(0x80),
            _ => out.push(b'?'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn norwegian_letters_and_pdf_delimiters_are_written_as_winansi() {
        assert_eq!(win_ansi("Tap (øre) \\ å"), b"Tap \\(\xf8re\\) \\\\ \xe5");
        assert_eq!(win_ansi("1\u{a0}000 − 2 ✓"), b"1 000 - 2 ?");
    }

    #[test]
    fn long_lines_wrap_at_spaces_and_words_longer_than_a_line_are_cut() {
        let mut pdf = TextPdf::new();
        let words = "word ".repeat(30);
        pdf.line(words.trim_end());
        pdf.line(&"x".repeat(COLUMNS + 5));
        assert!(pdf.lines.iter().all(|l| l.chars().count() <= COLUMNS));
        assert_eq!(pdf.lines.len(), 4);
        assert!(pdf.lines[1].starts_with("word"));
        assert_eq!(pdf.lines[3], "xxxxx");
    }

    #[test]
    fn the_cross_reference_table_points_at_each_object() {
        let mut pdf = TextPdf::new();
        for i in 0..(LINES_PER_PAGE + 3) {
            pdf.line(&format!("line {i}"));
        }
        let bytes = pdf.finish();
        // Byte offsets: the header's binary marker is not UTF-8, so the file is read as bytes.
        let at = |from: usize, pat: &[u8]| bytes[from..].starts_with(pat);
        let tail = String::from_utf8_lossy(&bytes[bytes.len() - 40..]).into_owned();
        let start: usize = tail
            .rsplit("startxref\n")
            .next()
            .and_then(|t| t.lines().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_default();
        assert!(at(start, b"xref\n0 8\n"), "two pages: 7 objects");
        let table = String::from_utf8_lossy(&bytes[start..]).into_owned();
        for (n, entry) in table.lines().skip(3).take(7).enumerate() {
            let offset: usize = entry[..10].parse().unwrap_or_default();
            assert!(
                at(offset, format!("{} 0 obj", n + 1).as_bytes()),
                "object {}",
                n + 1
            );
        }
    }
}
