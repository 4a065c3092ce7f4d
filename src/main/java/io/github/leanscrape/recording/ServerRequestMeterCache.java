package io.github.leanscrape.recording;

import io.micrometer.core.instrument.Meter;
import org.jspecify.annotations.Nullable;

/**
 * A bounded map from what decides the meters of one HTTP server request under Spring's
 * {@code DefaultServerRequestObservationConvention} (path pattern, method, status and
 * error class) to the meter the registry returned for them.
 * <p>
 * Those four values determine every low-cardinality key value the convention derives
 * ({@code exception}, {@code method}, {@code outcome}, {@code status}, {@code uri}) and
 * the handler's {@code error} tag, so a request that matches an entry has the entry's
 * tags, without deriving them. Reads take no lock and allocate nothing: the table is an
 * immutable open-addressing array published through a volatile field, compared field by
 * field. Writes copy it under a lock, once per combination while there is room.
 * <p>
 * The long task timer, resolved at the start of a request (no pattern and no error yet),
 * has entries of its own, told apart by {@code longTask}.
 *
 * @author leanscrape
 */
final class ServerRequestMeterCache {

	private static final int INITIAL_CAPACITY = 64;

	private final int maxSize;

	private final Object lock = new Object();

	/** Immutable once published; a power of two, at least twice the entries. */
	private volatile @Nullable Entry[] table = new Entry[INITIAL_CAPACITY];

	/** Counts removals, so that a meter resolved before one is not cached after it. */
	private volatile long removals;

	/** Guarded by {@link #lock}. */
	private int size;

	ServerRequestMeterCache(int maxSize) {
		this.maxSize = Math.max(0, maxSize);
	}

	static int hash(boolean longTask, @Nullable String pattern, int method, int status,
			@Nullable Class<?> errorType) {
		int hash = (pattern != null) ? pattern.hashCode() : 0;
		hash = 31 * hash + method;
		hash = 31 * hash + status;
		hash = 31 * hash + ((errorType != null) ? errorType.hashCode() : 0);
		hash = 31 * hash + (longTask ? 1 : 0);
		return hash ^ (hash >>> 16);
	}

	@Nullable Meter get(int hash, boolean longTask, @Nullable String pattern, int method, int status,
			@Nullable Class<?> errorType) {
		@Nullable Entry[] table = this.table;
		int mask = table.length - 1;
		int index = hash & mask;
		Entry entry;
		while ((entry = table[index]) != null) {
			if (entry.hash == hash && entry.matches(longTask, pattern, method, status, errorType)) {
				return entry.meter;
			}
			index = (index + 1) & mask;
		}
		return null;
	}

	boolean hasRoom() {
		return this.size < this.maxSize;
	}

	long removals() {
		return this.removals;
	}

	void put(int hash, boolean longTask, @Nullable String pattern, int method, int status,
			@Nullable Class<?> errorType, Meter meter, long removalsBefore) {
		synchronized (this.lock) {
			if (this.size >= this.maxSize || this.removals != removalsBefore
					|| get(hash, longTask, pattern, method, status, errorType) != null) {
				return;
			}
			@Nullable Entry[] current = this.table;
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
			insert(next, new Entry(hash, longTask, pattern, method, status, errorType, meter));
			this.size++;
			this.table = next;
		}
	}

	/**
	 * Forget every entry that holds a meter the registry removed.
	 * @param meter the removed meter
	 */
	void evict(Meter meter) {
		synchronized (this.lock) {
			this.removals++;
			@Nullable Entry[] current = this.table;
			int kept = 0;
			for (Entry each : current) {
				if (each != null && each.meter != meter) {
					kept++;
				}
			}
			if (kept == this.size) {
				return;
			}
			@Nullable Entry[] next = new Entry[current.length];
			for (Entry each : current) {
				if (each != null && each.meter != meter) {
					insert(next, each);
				}
			}
			this.size = kept;
			this.table = next;
		}
	}

	void clear() {
		synchronized (this.lock) {
			this.removals++;
			this.size = 0;
			this.table = new Entry[INITIAL_CAPACITY];
		}
	}

	int size() {
		synchronized (this.lock) {
			return this.size;
		}
	}

	private static void insert(@Nullable Entry[] table, Entry entry) {
		int mask = table.length - 1;
		int index = entry.hash & mask;
		while (table[index] != null) {
			index = (index + 1) & mask;
		}
		table[index] = entry;
	}

	/**
	 * One combination and its meter. Immutable.
	 */
	private static final class Entry {

		final int hash;

		final boolean longTask;

		final @Nullable String pattern;

		final int method;

		final int status;

		final @Nullable Class<?> errorType;

		final Meter meter;

		Entry(int hash, boolean longTask, @Nullable String pattern, int method, int status,
				@Nullable Class<?> errorType, Meter meter) {
			this.hash = hash;
			this.longTask = longTask;
			this.pattern = pattern;
			this.method = method;
			this.status = status;
			this.errorType = errorType;
			this.meter = meter;
		}

		boolean matches(boolean longTask, @Nullable String pattern, int method, int status,
				@Nullable Class<?> errorType) {
			return this.longTask == longTask && this.method == method && this.status == status
					&& this.errorType == errorType
					&& ((pattern != null) ? pattern.equals(this.pattern) : this.pattern == null);
		}

	}

}
