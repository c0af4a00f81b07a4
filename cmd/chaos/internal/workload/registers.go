package workload

// ZKRegister is the name the history gives the lock's register kept in
// ZooKeeper (its Data node): a wipe of the ensemble takes it back.
func (lp *LockPath) ZKRegister() string { return lp.zkRegister() }
