#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A progress line on standard error, rewritten in place (`\r`), for work that takes a while:
/// shown only when standard error is a terminal and the work has run for more than a second;
/// otherwise nothing is written at all.
final class ProgressLine {
    private let start = ContinuousClock.now
    private let label: String
    private let enabled: Bool
    private var shown = false
    private var lastWrite: ContinuousClock.Instant?

    init(label: String) {
        self.label = label
        self.enabled = isatty(STDERR_FILENO) == 1
    }

    /// `  250,000 rows  (125,000 rows/s)` once a second has passed.
    func update(rows: Int) {
        update(status: { seconds in
            let rate = Int((Double(rows) / max(seconds, 0.001)).rounded())
            return "\(rows.formatted()) rows  (\(rate.formatted()) rows/s)"
        })
    }

    /// `LABEL: STATUS` once a second has passed, at most ten times a second; `status` is given
    /// the seconds since the work began, and called only when the line is written.
    func update(status: (Double) -> String) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let elapsed = now - start
        guard elapsed > .seconds(1) else { return }
        // At most ten times a second.
        if let lastWrite, now - lastWrite < .milliseconds(100) { return }
        lastWrite = now
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        write("\r\u{1B}[K\(label): \(status(seconds))")
        shown = true
    }

    /// Clears the line, if it was shown.
    func finish() {
        guard shown else { return }
        write("\r\u{1B}[K")
        shown = false
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
