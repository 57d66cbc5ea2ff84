/// Sift's version, in one place: `sift --version` prints it.
public enum SiftVersion {
    /// The version, `MAJOR.MINOR.PATCH` (semantic versioning; 0.x while the API settles).
    public static let current = "0.14.0"
}
