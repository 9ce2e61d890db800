package op

import "context"

// Hook is another area's reaction to a change of a T, run inside the write
// making the change: its statements commit with the change, or the change
// is refused with its error. The area owning T exposes a Hooks[T] and
// calls it; the reacting area registers on it when the services are
// assembled (areas.New), so the owner never imports the reacting area.
// A reaction the project needs is a method here; none is stubbed.
type Hook[T any] interface {
	// PreDelete runs in w before obj, locked by w and about to be
	// deleted, is written deleted.
	PreDelete(ctx context.Context, w *W, obj *T) error
}

// Hooks are the reactions registered on one resource, run in the order
// registered. Register them while the services are assembled, before the
// first write: a Hooks is read, never changed, by writes running at once.
type Hooks[T any] struct {
	hooks []Hook[T]
}

// RegisterHooks adds reactions, after those already registered.
func (h *Hooks[T]) RegisterHooks(hooks ...Hook[T]) { h.hooks = append(h.hooks, hooks...) }

// PreDelete runs every hook's PreDelete in order; the first error stops
// the rest and aborts the write.
func (h *Hooks[T]) PreDelete(ctx context.Context, w *W, obj *T) error {
	for _, hook := range h.hooks {
		if err := hook.PreDelete(ctx, w, obj); err != nil {
			return err
		}
	}
	return nil
}
