package traceevent

// ResultRewound is a LearnExpiry's result when the session met an ensemble
// whose history is older than what it had seen (wiped or restored;
// impl/zklock's ErrHistoryRewound, spec/tla/Rewind.tla's MeetOlder): the
// ensemble forgot the session, as an expiry does, and the lock specs read
// it as one.
const ResultRewound Result = "rewound"
