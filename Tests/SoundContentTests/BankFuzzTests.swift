import SoundServerSupport
import Foundation
import SoundContent
import Testing

/// Seeded random mutations of the demo bank: whatever the bytes, the parser
/// returns a bank or a non-empty list of issues with JSON paths, and never
/// traps or hangs. Bounded in time for CI (see ``FuzzBudget``).
@Suite struct BankFuzzTests {
    @Test func mutatedBanksParseOrFailCleanly() throws {
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: demoBankPath)))
        let folder = URL(fileURLWithPath: demoBankPath).deletingLastPathComponent().path
        let budget = FuzzBudget.fromEnvironment(defaultSeconds: 4, maxIterations: 20_000)
        let clock = ContinuousClock()
        var failures = 0
        let iterations = budget.run("bank fuzz") { iteration, random in
            guard failures < 5 else { return }
            let input = Mutation.mutate(original, using: &random)
            let started = clock.now
            let result = BankParser.parse(input, name: "fuzz", folder: folder)
            let elapsed = clock.now - started
            if elapsed > .seconds(1) {
                failures += 1
                Issue.record("seed \(budget.seed) iteration \(iteration): parsing took \(elapsed)")
            }
            if case .failure(let failure) = result {
                let bad = failure.issues.filter { !$0.path.hasPrefix("$") || $0.reason.isEmpty }
                if failure.issues.isEmpty || !bad.isEmpty {
                    failures += 1
                    Issue.record("seed \(budget.seed) iteration \(iteration): issues \(failure.issues)")
                }
            }
        }
        #expect(iterations > 0)
    }

    @Test func theMutatorActuallyBreaksBanks() {
        // Guards the fuzz test against a mutator that silently stopped mutating.
        var random = SplitMix64(seed: 1)
        let original = Array(bankJSON().utf8)
        let failed = (0..<200).filter { _ in
            if case .failure = parse(String(decoding: Mutation.mutate(original, using: &random), as: UTF8.self)) {
                return true
            }
            return false
        }
        #expect(failed.count > 100)
    }
}
