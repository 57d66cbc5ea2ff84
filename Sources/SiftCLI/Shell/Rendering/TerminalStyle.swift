/// Colour for a person at a terminal: headings bold, rules, borders, footers and nil values
/// dim. Only when results go to a terminal and the environment has no `NO_COLOR`
/// (https://no-color.org; any value, even an empty one, turns colour off); never in pipes,
/// files (`.output FILE`) or transcripts.
struct TerminalStyle {
    /// Whether escapes are written at all.
    let isEnabled: Bool

    /// No colour.
    static let plain = TerminalStyle(isEnabled: false)

    /// Colour when a terminal shows the results and `NO_COLOR` is not in `environment`.
    static func forOutput(isTerminal: Bool, environment: [String: String]) -> TerminalStyle {
        TerminalStyle(isEnabled: isTerminal && environment["NO_COLOR"] == nil)
    }

    /// Column headings and line mode's keys.
    func heading(_ text: String) -> String { wrap(text, "1") }

    /// Rules, borders, section headings and footers.
    func rule(_ text: String) -> String { wrap(text, "2") }

    /// A nil value shown as `.nullvalue`.
    func null(_ text: String) -> String { wrap(text, "2") }

    /// `text` between an SGR escape and a reset (nothing for empty text or without colour).
    private func wrap(_ text: String, _ code: String) -> String {
        guard isEnabled, !text.isEmpty else { return text }
        return "\u{1B}[\(code)m" + text + "\u{1B}[0m"
    }
}
