import Foundation
import Sift

/// Any error as `sift` prints it after `error: `: the message of Sift's own errors, SQLite's
/// errors translated (what happened, to which file, what to do), Foundation's in words — never
/// a type name, a raw SQLite code with its SQL, or `Error Domain=…`.
enum ErrorText {
    static func message(of error: any Error) -> String {
        switch error {
        case let error as StoreError: error.code == .memoryLimit ? error.message + MemoryBudget.moreAdvice : error.message
        case let error as EvaluationError: error.code == .memoryLimit ? error.message + MemoryBudget.moreAdvice : error.message
        case let error as ParseError: error.description
        case let error as ModelError: error.message
        case let error as JSONSyntaxError: error.description
        case let error as SessionError: error.description
        case let error as ArgumentError: error.description
        case let error as JSONReadError: error.description
        case let error as BudgetError: error.description
        case let error as OutputError: error.description
        default:
            // A SQLite error that escaped its store still reads as words (without its file).
            if let text = SQLiteStore.message(ofSQLiteError: error) {
                text
            } else if isFoundationError(error) {
                FoundationErrorText.describe(error)
            } else {
                "\(error)"
            }
        }
    }

    /// Whether `error` is one ``message(of:)`` puts in words: Sift's, SQLite's or Foundation's
    /// (not the argument parser's, which prints its own help and usage).
    static func isKnown(_ error: any Error) -> Bool {
        switch error {
        case is StoreError, is EvaluationError, is ParseError, is ModelError, is JSONSyntaxError, is SessionError,
             is ArgumentError, is JSONReadError, is BudgetError:
            true
        default:
            SQLiteStore.message(ofSQLiteError: error) != nil || isFoundationError(error)
        }
    }

    /// Whether `error` is Foundation's (an NSError of Cocoa's or POSIX's domain).
    private static func isFoundationError(_ error: any Error) -> Bool {
        let domain = (error as NSError).domain
        return domain == NSCocoaErrorDomain || domain == NSPOSIXErrorDomain
    }
}
