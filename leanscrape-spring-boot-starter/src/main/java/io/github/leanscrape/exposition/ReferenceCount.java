package io.github.leanscrape.exposition;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The references held to something shared, such as a {@link PooledBody}: one at first,
 * one more for each holder that retains it; whoever drops the last one gives back what it
 * holds. Once at zero it stays there: nothing is retained after its last release.
 *
 * @author leanscrape
 */
public final class ReferenceCount {

	private final AtomicInteger references = new AtomicInteger(1);

	/**
	 * Add a reference if any is still held.
	 * @return {@code true} when a reference was added, {@code false} after the last
	 * release
	 */
	public boolean tryRetain() {
		int current;
		do {
			current = this.references.get();
			if (current <= 0) {
				return false;
			}
		}
		while (!this.references.compareAndSet(current, current + 1));
		return true;
	}

	/**
	 * Drop a reference; dropping more than were held does nothing.
	 * @return {@code true} when this dropped the last one, and the caller gives back what
	 * is held
	 */
	public boolean release() {
		int current;
		do {
			current = this.references.get();
			if (current <= 0) {
				return false;
			}
		}
		while (!this.references.compareAndSet(current, current - 1));
		return current == 1;
	}

	/**
	 * Return whether exactly one reference is held.
	 * @return {@code true} when the caller's is the only one
	 */
	public boolean isOnly() {
		return this.references.get() == 1;
	}

	/**
	 * Return whether the last reference was dropped.
	 * @return {@code true} once released
	 */
	public boolean isReleased() {
		return this.references.get() <= 0;
	}

}
