import Foundation

/// Foundation's errors (reading files, property lists, XML) in words: the reason, never
/// `Error Domain=NSCocoaErrorDomain Code=…` and its user-info dictionary. A file error says what
/// the system said (`No such file or directory`); a property list that cannot be read says so.
public enum FoundationErrorText {
    public static func describe(_ error: any Error) -> String {
        if let error = error as? ModelError { return error.message }
        if let error = error as? StoreError { return error.message }
        let ns = error as NSError
        if let posix = posixReason(ns) { return posix }
        if ns.domain == NSCocoaErrorDomain {
            switch ns.code {
            case CocoaError.propertyListReadCorrupt.rawValue, CocoaError.propertyListReadUnknownVersion.rawValue:
                return "the data is not a property list Foundation can read (it is damaged, or not a property list)"
            case CocoaError.propertyListReadStream.rawValue:
                return "the property list cannot be read"
            case CocoaError.propertyListWriteInvalid.rawValue, CocoaError.propertyListWriteStream.rawValue:
                return "the value cannot be written as a property list"
            case CocoaError.fileReadNoSuchFile.rawValue, CocoaError.fileNoSuchFile.rawValue:
                return "no such file"
            case CocoaError.fileReadNoPermission.rawValue, CocoaError.fileWriteNoPermission.rawValue:
                return "permission denied"
            case CocoaError.fileReadTooLarge.rawValue:
                return "the file is too large to read"
            case CocoaError.fileReadInapplicableStringEncoding.rawValue, CocoaError.fileReadCorruptFile.rawValue:
                return "the file's contents cannot be read (damaged, or in an unexpected encoding)"
            case CocoaError.fileWriteOutOfSpace.rawValue:
                return "the disk is full"
            default:
                break
            }
        }
        let text = ns.localizedDescription
        if !text.isEmpty, !text.hasPrefix("The operation could not be completed"), !text.contains("Error Domain=") {
            return text.hasSuffix(".") ? String(text.dropLast()) : text
        }
        // A Swift error bridged to NSError describes itself better than its domain does.
        let described = String(describing: error)
        return described.contains("Error Domain=") ? "\(ns.domain) error \(ns.code)" : described
    }

    /// The system's reason for a POSIX error, directly or underneath a Cocoa one.
    private static func posixReason(_ error: NSError) -> String? {
        if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nil
    }
}
