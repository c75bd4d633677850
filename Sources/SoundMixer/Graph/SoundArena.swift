#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where in-memory sounds live: large 2 MiB-aligned mappings the kernel may
/// back with transparent huge pages (`madvise(MADV_HUGEPAGE)`), filled one
/// sound after another. At hundreds of voices the mix streams sound data
/// from DRAM and, with 4 KiB pages, spends much of its time on TLB misses;
/// packed into huge pages, thousands of sounds fit the TLB.
///
/// Control side only (behind the mixer's mutex). A chunk is unmapped when
/// its last sound is freed and it is not the one being filled.
struct SoundArena {
    /// One place in the arena: which chunk, and the memory.
    struct Allocation {
        let chunk: Int
        let memory: UnsafeMutableRawPointer
    }

    private struct Chunk {
        let base: UnsafeMutableRawPointer
        let size: Int
        var used = 0
        var live = 0
    }

    private static let hugePage = 2 << 20
    private static let chunkSize = 32 << 20
    private var chunks: [Chunk?] = []
    private var current: Int?

    /// Memory for `bytes` bytes, 64-byte aligned. Traps if the system has no
    /// address space left (as an allocation failure would).
    mutating func allocate(_ bytes: Int) -> Allocation {
        let size = (bytes + 63) & ~63
        if let c = current, let chunk = chunks[c], chunk.size - chunk.used >= size {
            chunks[c]!.used += size
            chunks[c]!.live += 1
            return Allocation(chunk: c, memory: chunk.base + chunk.used)
        }
        let chunkBytes = max(Self.chunkSize, (size + Self.hugePage - 1) / Self.hugePage * Self.hugePage)
        let base = Self.map(chunkBytes)
        let index = chunks.firstIndex { $0 == nil } ?? chunks.count
        if index == chunks.count { chunks.append(nil) }
        chunks[index] = Chunk(base: base, size: chunkBytes, used: size, live: 1)
        if size <= Self.chunkSize / 4 {
            if let c = current, chunks[c]?.live == 0 { unmap(c) }
            current = index
        }
        return Allocation(chunk: index, memory: base)
    }

    /// Gives back one allocation of `chunk`.
    mutating func free(_ allocation: Allocation) {
        let c = allocation.chunk
        chunks[c]!.live -= 1
        if chunks[c]!.live == 0 && c != current { unmap(c) }
    }

    /// Unmaps everything (the mixer is being destroyed).
    mutating func removeAll() {
        for c in chunks.indices where chunks[c] != nil { unmap(c) }
        current = nil
    }

    private mutating func unmap(_ c: Int) {
        let chunk = chunks[c]!
        munmap(chunk.base, chunk.size)
        chunks[c] = nil
    }

    private static func map(_ bytes: Int) -> UnsafeMutableRawPointer {
        // Over-map by one huge page, then trim both ends to a 2 MiB-aligned region.
        let total = bytes + hugePage
        guard let raw = mmap(nil, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            raw != MAP_FAILED
        else { fatalError("SoundArena: mmap of \(total) bytes failed (errno \(errno))") }
        let address = Int(bitPattern: raw)
        let aligned = (address + hugePage - 1) / hugePage * hugePage
        if aligned > address { munmap(raw, aligned - address) }
        let tail = address + total - (aligned + bytes)
        if tail > 0 { munmap(UnsafeMutableRawPointer(bitPattern: aligned + bytes), tail) }
        let base = UnsafeMutableRawPointer(bitPattern: aligned)!
        _ = madvise(base, bytes, MADV_HUGEPAGE)  // a hint: without THP the memory works as well
        return base
    }
}
