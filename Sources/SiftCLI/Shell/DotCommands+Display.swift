import Foundation
import Sift

/// How wide results are: `.width`, `.x`.
extension DotCommands {
    static let displayCommands: [DotCommand] = []
}
