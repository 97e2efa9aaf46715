import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import StoreEngine

/// `openstore doctor`: checks a running store and says what is wrong in plain words: does it
/// answer, is its data folder writable, does each app's catalog load, does each notification URL
/// answer. Exits 1 when something is wrong, so a CI job can run it before its tests.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check a running store: reachable, data folder writable, catalogs loadable, notification URLs answering.",
        discussion: """
        Give the same --data and --config (or --catalog) the store was started with, so their \
        files are checked too. Exit status 0 when all is well, 1 when something is wrong.
        """)

    @OptionGroup var target: WorldConnection
    @OptionGroup var data: DataOption
    @Option(help: ArgumentHelp("The store's config file: its catalogs are checked (env OPENSTORE_CONFIG).", valueName: "file"))
    var config: String?
    @Option(name: .customLong("catalog"), help: "A .storekit file the store sells from, to check (repeatable; env OPENSTORE_CATALOGS).")
    var catalogs: [String] = []
    @Option(help: "Seconds each notification URL has to answer.")
    var timeout: Double = 5

    func run() async throws {
        var report = DoctorReport()
        checkDataFolder(&report)
        checkCatalogFiles(&report)
        let client = target.connection.client()
        defer { client.shutdown() }
        if await checkReachable(client, &report) {
            let apps = await checkApps(client, &report)
            await checkNotificationURLs(client, apps: apps, &report)
        }
        print(report.problems == 0 ? "\nAll is well." : "\n\(report.problems) problem(s) found.")
        if report.problems > 0 { throw ExitCode(1) }
    }

    func checkDataFolder(_ report: inout DoctorReport) {
        let file = (config ?? Env.value("OPENSTORE_CONFIG")).flatMap { try? ConfigFile.load(path: $0) }
        let folder = data.flag ?? Env.value("OPENSTORE_DATA") ?? file?.data ?? ".openstore"
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
            report.bad("The data folder \(folder) does not exist here. Pass --data with the folder the store was started with.")
            return
        }
        guard isFolder.boolValue else { return report.bad("\(folder) is a file, not a data folder.") }
        let probe = folder + "/.doctor-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: probe, contents: Data("ok".utf8)) else {
            return report.bad("The data folder \(folder) is not writable: the store cannot save purchases there.")
        }
        try? FileManager.default.removeItem(atPath: probe)
        let database = (try? DatabaseLocation.sqlitePath(url: data.databaseURL, data: folder)) ?? folder + "/store.sqlite"
        if FileManager.default.fileExists(atPath: database) {
            report.good("The data folder \(folder) is writable and holds the store's database.")
        } else {
            report.bad("The data folder \(folder) is writable but holds no store.sqlite: is this the folder the store was started with?")
        }
    }

    func checkCatalogFiles(_ report: inout DoctorReport) {
        var files = catalogs.isEmpty ? Env.list("OPENSTORE_CATALOGS", in: ProcessInfo.processInfo.environment) ?? [] : catalogs
        if let path = config ?? Env.value("OPENSTORE_CONFIG") {
            do {
                files += (try ConfigFile.load(path: path).apps ?? []).map(\.catalog)
                report.good("The config file \(path) is valid.")
            } catch {
                report.bad("The config file is wrong: \(error)")
            }
        }
        for file in files {
            do {
                _ = try Serve.loadApps([.init(catalog: file, bundleId: "doctor.check")])
                report.good("The catalog \(file) loads.")
            } catch {
                report.bad("The catalog \(file) does not load: \(error)")
            }
        }
    }

    func checkReachable(_ client: StoreClient, _ report: inout DoctorReport) async -> Bool {
        do {
            let answer = try await client.send(.GET, "/healthz")
            guard answer["status"] as? String == "ok" else {
                report.bad("The store at \(client.base) answers, but not as an OpenStoreKit store (/healthz said \(answer)).")
                return false
            }
            report.good("The store answers at \(client.base).")
            return true
        } catch {
            report.bad("Nothing answers at \(client.base): is `openstore serve` running there? (Use --server to point at it.)")
            return false
        }
    }

    func checkApps(_ client: StoreClient, _ report: inout DoctorReport) async -> [String] {
        guard let apps = try? await client.send(.GET, "/storekit/v1/apps")["apps"] as? [[String: Any]] else {
            report.bad("The store did not list its apps (/storekit/v1/apps).")
            return []
        }
        var bundles: [String] = []
        for app in apps {
            guard let bundle = app["bundleId"] as? String else { continue }
            bundles.append(bundle)
            do {
                let products = try await client.send(.GET, "/storekit/v1/apps/\(bundle.pathEscaped)/products")["products"] as? [Any] ?? []
                if products.isEmpty {
                    report.bad("\(bundle): its catalog has no products to sell.")
                } else {
                    report.good("\(bundle): its catalog is loaded (\(products.count) products).")
                }
            } catch {
                report.bad("\(bundle): its products cannot be listed: \(error)")
            }
        }
        if bundles.isEmpty { report.bad("The store hosts no app.") }
        return bundles
    }

    func checkNotificationURLs(_ client: StoreClient, apps: [String], _ report: inout DoctorReport) async {
        for bundle in apps {
            let answer: [String: Any]
            do {
                answer = try await client.send(.GET, target.path + "/apps/\(bundle.pathEscaped)/notification-url")
            } catch {
                report.bad("\(bundle): cannot read its notification URLs in world \(target.world) (\(error)); is --admin-token right?")
                continue
            }
            var any = false
            for (environment, key) in [("Production", "productionURL"), ("Sandbox", "sandboxURL")] {
                guard let url = answer[key] as? String, !url.isEmpty else { continue }
                any = true
                let shown = NotificationURLText.redacted(url)
                switch await Self.answers(url, client: client.http, timeout: timeout) {
                case .success(let status):
                    report.good("\(bundle): the \(environment) notification URL \(shown) answers (HTTP \(status)).")
                case .failure(let failure):
                    report.bad("\(bundle): the \(environment) notification URL \(shown) does not answer (\(failure.reason)): notifications to it fail.")
                }
            }
            if !any { report.note("\(bundle): no notification URL is set in world \(target.world); no server notifications are sent.") }
        }
    }

    struct NoAnswer: Error { var reason: String }

    /// The HTTP status the URL answers a HEAD request with (any status: something listens), or why nothing answered.
    static func answers(_ url: String, client: HTTPClient, timeout: Double) async -> Result<Int, NoAnswer> {
        var request = HTTPClientRequest(url: url)
        request.method = .HEAD
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(max(0.1, timeout) * 1000)))
            return .success(Int(response.status.code))
        } catch {
            let text = String(describing: error)
            if text.localizedCaseInsensitiveContains("refused") { return .failure(NoAnswer(reason: "connection refused: nothing listens there")) }
            if text.localizedCaseInsensitiveContains("timeout") || text.localizedCaseInsensitiveContains("deadline") {
                return .failure(NoAnswer(reason: "no answer within \(seconds(timeout))"))
            }
            return .failure(NoAnswer(reason: text))
        }
    }

    static func seconds(_ value: Double) -> String { value == value.rounded() ? "\(Int(value)) s" : "\(value) s" }
}

/// The doctor's findings, printed as they come.
struct DoctorReport {
    var problems = 0

    mutating func good(_ text: String) { print("ok    \(text)") }
    mutating func note(_ text: String) { print("note  \(text)") }
    mutating func bad(_ text: String) {
        problems += 1
        print("FAIL  \(text)")
    }
}
