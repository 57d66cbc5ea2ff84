import Foundation
import Testing

/// How many times longer than usual a test may take: `SIFT_TEST_TIME_SCALE`, which
/// `scripts/sanitize` sets for its instrumented (several times slower) builds; else 1.
public enum TestTimeScale {
    public static let factor: Double =
        ProcessInfo.processInfo.environment["SIFT_TEST_TIME_SCALE"].flatMap(Double.init).map { max($0, 1) } ?? 1
}

extension Trait where Self == TimeLimitTrait {
    /// A bound on a test that would hang, or take minutes, if the work it checks went back to
    /// being quadratic or exponential: `minutes` on a plain build, times ``TestTimeScale/factor``
    /// under a sanitizer, where the suite runs several times slower and a test may wait long
    /// for a thread after it has started. Never a measure of speed (that is `Benchmarks/run`'s).
    public static func hangGuard(minutes: Int = 1) -> Self {
        .timeLimit(.minutes(Int64((Double(minutes) * TestTimeScale.factor).rounded(.up))))
    }
}
