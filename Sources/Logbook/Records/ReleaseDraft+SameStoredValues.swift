import Foundation

extension ReleaseDraft {
    /// Whether `other` is stored as the same values: every text byte for byte (Swift's `==` takes
    /// the NFC and NFD spellings of a text as one, which the store keeps apart), every date to
    /// the bit, the checklist item for item. An editing call whose change leaves a draft so writes nothing.
    func hasSameStoredValues(as other: ReleaseDraft) -> Bool {
        id == other.id && version.utf8.elementsEqual(other.version.utf8) && whatsNew.utf8.elementsEqual(other.whatsNew.utf8)
            && submittedAt?.timeIntervalSinceReferenceDate.bitPattern == other.submittedAt?.timeIntervalSinceReferenceDate.bitPattern
            && createdAt.timeIntervalSinceReferenceDate.bitPattern == other.createdAt.timeIntervalSinceReferenceDate.bitPattern
            && updatedAt.timeIntervalSinceReferenceDate.bitPattern == other.updatedAt.timeIntervalSinceReferenceDate.bitPattern
            && checklist.elementsEqual(other.checklist) { item, otherItem in
                item.id == otherItem.id && item.isDone == otherItem.isDone && item.title.utf8.elementsEqual(otherItem.title.utf8)
            }
    }
}
