package io.github.leanscrape.exposition;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reference count starting at one; whoever drops the last reference gives back what is
 * held. Once at zero it stays there.
 *
 * @author leanscrape
 */
public final class ReferenceCount {

	private final AtomicInteger references = new AtomicInteger(1);

	/**
	 * Add a reference if any is still held.
	 * @return {@code true} when a reference was added
	 */
	public boolean tryRetain() {
		return add(1) > 0;
	}

	/**
	 * Drop a reference; dropping more than were held does nothing.
	 * @return {@code true} when this dropped the last one
	 */
	public boolean release() {
		return add(-1) == 1;
	}

	// Adds unless at zero; returns the count before, or zero.
	private int add(int delta) {
		int current;
		do {
			current = this.references.get();
			if (current <= 0) {
				return 0;
			}
		}
		while (!this.references.compareAndSet(current, current + delta));
		return current;
	}

	// Whether exactly one reference is held: the caller's, where it is the only one.
	boolean isOnly() {
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
