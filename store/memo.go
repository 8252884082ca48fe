package store

// Memo returns the value kept in the transaction under key, made by fn on the first call
// (an error is returned and nothing kept). It is for values that cannot change while the
// transaction lasts, such as what a game's genesis record fixes: a transaction that reads
// them at every step of a mail reads them once. The value lives as long as the transaction.
func Memo[T any](tx *Tx, key any, fn func() (T, error)) (T, error) {
	if v, ok := tx.memo[key]; ok {
		return v.(T), nil
	}
	v, err := fn()
	if err != nil {
		return v, err
	}
	if tx.memo == nil {
		tx.memo = map[any]any{}
	}
	tx.memo[key] = v
	return v, nil
}
