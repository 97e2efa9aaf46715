import ArgumentParser
import Foundation
import StoreEngine

/// `openstore time …`: read, jump and speed up a world's clock. Renewals, expirations and billing
/// retries that fall due during a jump fire in order before the command returns.
struct TimeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "time",
        abstract: "Show, advance or set the rate of a world's clock.",
        subcommands: [Show.self, Advance.self, SetRate.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the world's current time and rate.")
        @OptionGroup var target: WorldConnection
        @Flag(help: "Print the store's answer as JSON.") var json = false

        func run() async throws {
            let time = try await target.with { client, path in try await client.send(.GET, path + "/time") }
            print(json ? AdminOutput.json(time) : TimeCommand.line(time))
        }
    }

    struct Advance: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Jump the world's clock ahead.",
            discussion: """
            DURATION is 45s, 30m, 12h, 1d, 2w, 1M (a calendar month), 1y, ISO 8601 (P1Y, P1M, P3D, PT12H) \
            or a number of milliseconds. A jump of a week or more shows a progress bar on a terminal.
            """)
        @Argument(help: "How far to jump.") var duration: String
        @OptionGroup var target: WorldConnection
        @Flag(help: "Never draw the progress bar.") var noProgress = false
        @Flag(help: "Print the store's answer as JSON.") var json = false

        /// Jumps shorter than this are one request; longer ones go in steps so progress shows.
        static let longJumpMs: Int64 = 7 * 86_400_000
        static let steps: Int64 = 20

        func run() async throws {
            let jump: TimeJump
            do { jump = try DurationParser.parse(duration) } catch { throw ValidationError(error.description) }
            let answer = try await target.with { client, path in
                let showBar = !noProgress && isatty(STDERR_FILENO) == 1
                // The admin API reads one canonical form (openapi.json's `Duration`); the CLI reads
                // more ("36 hours", "1.5d"), so it sends what it read: milliseconds, or the calendar span.
                let wire: Any = switch jump {
                case .fixed(let ms): ms
                case .calendar(let period): period.iso8601
                }
                guard showBar else { return try await client.send(.POST, path + "/time/advance", json: ["duration": wire]) }
                let start = try await client.send(.GET, path + "/time")
                let total = jump.milliseconds(from: (start["nowMs"] as? NSNumber)?.int64Value ?? 0)
                guard total >= Self.longJumpMs else { return try await client.send(.POST, path + "/time/advance", json: ["duration": total]) }
                // The HTTP call returns only when the jump is done, so the bar moves between steps.
                var last: [String: Any] = [:]
                var done: Int64 = 0
                let bar = ProgressBar(label: "advancing \(jump)")
                for step in 1...Self.steps {
                    let next = total * step / Self.steps
                    last = try await client.send(.POST, path + "/time/advance", json: ["duration": next - done])
                    done = next
                    bar.draw(Double(step) / Double(Self.steps), detail: AdminOutput.date(last["nowMs"]))
                }
                bar.finish()
                last["advancedMs"] = total
                return last
            }
            print(json ? AdminOutput.json(answer) : "advanced \(jump); " + TimeCommand.line(answer))
        }
    }

    struct SetRate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-rate",
            abstract: "Set how fast the world's clock runs.",
            discussion: """
            RATE is an SKTestSession.TimeRate name (realTime, oneSecondIsOneDay, monthlyRenewalEveryThirtySeconds, \
            oneRenewalEveryTwoSeconds, …), its raw value as .storekit files store it (0, 6, 15, 1005, …), or a \
            multiplier (720x: one real second is 12 world minutes).
            """)
        @Argument(help: "The new rate.") var rate: String
        @OptionGroup var target: WorldConnection

        func validate() throws {
            guard TimeRate(rate) != nil else { throw ValidationError("\"\(rate)\" is not a time rate (try oneSecondIsOneDay, 6 or 720x)") }
        }

        func run() async throws {
            // The API reads one spelling of each rate; the CLI reads more (any case, spaces).
            let value = TimeRate(rate)?.apiValue ?? rate
            let time = try await target.with { client, path in try await client.send(.POST, path + "/time/rate", json: ["rate": value]) }
            print(TimeCommand.line(time))
        }
    }

    static func line(_ time: [String: Any]) -> String {
        "\(time["world"] ?? "?")  \(AdminOutput.date(time["nowMs"]))  rate \(time["rate"] ?? "?")"
    }
}

/// A one-line bar on stderr, redrawn in place.
struct ProgressBar {
    var label: String
    var width = 30

    func draw(_ fraction: Double, detail: String) {
        let filled = Int((fraction * Double(width)).rounded())
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) \(bar) \(Int((fraction * 100).rounded()))%  \(detail)\u{1B}[K".utf8))
    }

    func finish() { FileHandle.standardError.write(Data("\n".utf8)) }
}
