@testable import SiftSQL
@testable import SiftSQLStore
@testable import SiftSQLiteStore
import Testing
