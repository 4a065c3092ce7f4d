package io.github.leanscrape.recording;

import org.jspecify.annotations.Nullable;

/**
 * The bounded, copy-on-write hash table under the starter's recording caches: what they
 * key by and hold differs, how they store, publish and forget does not. Reads take no
 * lock and allocate nothing: {@link #entries()} is an immutable open-addressing array (a
 * power of two long, at least twice the entries) published through a volatile field,
 * which the caller probes from an entry's {@link Entry#hash}. Writes copy the array under
 * a lock, at most once per combination while there is room, and when the registry removes
 * a meter.
 *
 * @author leanscrape
 */
public final class CacheTable {

	private static final int INITIAL_CAPACITY = 64;

	private final int maxSize;

	private final Object lock = new Object();

	private volatile @Nullable Entry[] entries = new Entry[INITIAL_CAPACITY];

	/**
	 * Counts removals, so that a value resolved before a removal and put after it is not
	 * cached: it may be the removed one. Written under the lock.
	 */
	private volatile long removals;

	/** Guarded by {@link #lock}. */
	private int size;

	public CacheTable(int maxSize) {
		this.maxSize = Math.max(0, maxSize);
	}

	/**
	 * Return the current array of entries, never modified once returned.
	 * @return the entries, with {@code null} in the empty slots
	 */
	public @Nullable Entry[] entries() {
		return this.entries;
	}

	/**
	 * Return whether a new entry would still fit. A racy read: the answer only decides
	 * whether a miss is worth remembering.
	 * @return whether the table has room
	 */
	public boolean hasRoom() {
		return this.size < this.maxSize;
	}

	/**
	 * Return the removal count to pass to {@link #put} after resolving a value.
	 * @return the number of removals so far
	 */
	public long removals() {
		return this.removals;
	}

	/**
	 * Add an entry unless the table is full, an entry with the same key is present, or a
	 * value was removed since {@code removalsBefore} was read.
	 * @param entry the entry
	 * @param removalsBefore {@link #removals()} read before the value was resolved
	 * @return whether the entry was added
	 */
	public boolean put(Entry entry, long removalsBefore) {
		synchronized (this.lock) {
			if (this.size >= this.maxSize || this.removals != removalsBefore || contains(entry)) {
				return false;
			}
			@Nullable Entry[] current = this.entries;
			int capacity = current.length;
			while (capacity < 2 * (this.size + 1)) {
				capacity <<= 1;
			}
			@Nullable Entry[] next = new Entry[capacity];
			for (Entry each : current) {
				if (each != null) {
					insert(next, each);
				}
			}
			insert(next, entry);
			this.size++;
			this.entries = next;
			return true;
		}
	}

	private boolean contains(Entry entry) {
		@Nullable Entry[] entries = this.entries;
		int mask = entries.length - 1;
		int index = entry.hash & mask;
		Entry each;
		while ((each = entries[index]) != null) {
			if (each.hash == entry.hash && each.sameKey(entry)) {
				return true;
			}
			index = (index + 1) & mask;
		}
		return false;
	}

	/**
	 * Forget every entry that holds the given value (a meter, when the registry removes
	 * it).
	 * @param value the removed value
	 */
	public void evict(Object value) {
		synchronized (this.lock) {
			this.removals++;
			@Nullable Entry[] current = this.entries;
			int kept = 0;
			for (Entry each : current) {
				if (each != null && each.value != value) {
					kept++;
				}
			}
			if (kept == this.size) {
				return;
			}
			@Nullable Entry[] next = new Entry[current.length];
			for (Entry each : current) {
				if (each != null && each.value != value) {
					insert(next, each);
				}
			}
			this.size = kept;
			this.entries = next;
		}
	}

	/**
	 * Forget every entry.
	 */
	public void clear() {
		synchronized (this.lock) {
			this.removals++;
			this.size = 0;
			this.entries = new Entry[INITIAL_CAPACITY];
		}
	}

	/**
	 * Return the number of entries.
	 * @return the number of entries
	 */
	public int size() {
		synchronized (this.lock) {
			return this.size;
		}
	}

	private static void insert(@Nullable Entry[] entries, Entry entry) {
		int mask = entries.length - 1;
		int index = entry.hash & mask;
		while (entries[index] != null) {
			index = (index + 1) & mask;
		}
		entries[index] = entry;
	}

	/**
	 * A key and its value. Immutable: readers that see the reference see the fields as
	 * written before publication.
	 */
	public abstract static class Entry {

		final int hash;

		final Object value;

		public Entry(int hash, Object value) {
			this.hash = hash;
			this.value = value;
		}

		/**
		 * Return whether another entry of the same table has the same key.
		 * @param other the other entry, with the same hash
		 * @return whether the keys are equal
		 */
		protected abstract boolean sameKey(Entry other);

	}

}
