/// The pages of the full-screen demo, in the order of their number keys,
/// like the menu of Wwise's Integration Demo.
enum DemoPage: Int, CaseIterable, Sendable {
    case session = 1, route, playback, footsteps, rtpc, positioning, music, log

    /// The name on the tab row and in the title bar.
    var title: String {
        switch self {
        case .session: "Session"
        case .route: "Route"
        case .playback: "Playback"
        case .footsteps: "Footsteps"
        case .rtpc: "RTPC"
        case .positioning: "3D"
        case .music: "Music"
        case .log: "Log"
        }
    }

    /// Whether the page plays the demo bank's content (offered only with a bank).
    var needsBank: Bool { [.footsteps, .rtpc, .positioning, .music].contains(self) }

    /// The page after this one (`offset` 1) or before it (−1), wrapping around.
    func moved(by offset: Int) -> DemoPage {
        let all = Self.allCases
        let index = (rawValue - 1 + offset % all.count + all.count) % all.count
        return all[index]
    }
}
