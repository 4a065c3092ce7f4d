package io.github.leanscrape.recording;

import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.Meter;
import org.jspecify.annotations.Nullable;

/**
 * A bounded map from an observation's name, low-cardinality key values and error value to
 * the meter that the registry returned for them. Reads take no lock and allocate nothing:
 * a key is compared field by field with the observation's {@link KeyValues}. A timer's
 * entry has an error value, a long task timer's {@code null}, so the two never match.
 * <p>
 * The key sets met per observation name are remembered too, so that {@link #find} looks a
 * combination up straight from a context's map of key values, hashed as {@link #hash}
 * does.
 *
 * @author leanscrape
 */
public final class ObservationMeterCache {

	private static final int INITIAL_CAPACITY = 64;

	private static final String[][] NO_KEY_SETS = {};

	private final int maxSize;

	private final CacheTable table;

	/** Guards the key sets. */
	private final Object lock = new Object();

	/**
	 * The key sets met, per observation name: an open-addressing table, immutable once
	 * published, as the entries are.
	 */
	private volatile @Nullable KeySets[] keySets = new KeySets[INITIAL_CAPACITY];

	/** Guarded by {@link #lock}. */
	private int keySetCount;

	public ObservationMeterCache(int maxSize) {
		this.maxSize = Math.max(0, maxSize);
		this.table = new CacheTable(maxSize);
	}

	/**
	 * Return the hash of a key. Iterates the key values once; allocates nothing beyond
	 * what iterating {@link KeyValues} allocates (an iterator that escape analysis
	 * removes).
	 * @param name the observation name
	 * @param keyValues the low-cardinality key values, sorted by key
	 * @param error the error value of a timer, or {@code null} for a long task timer
	 * @return the hash
	 */
	public static int hash(String name, KeyValues keyValues, @Nullable String error) {
		int hash = name.hashCode();
		for (KeyValue keyValue : keyValues) {
			hash = 31 * hash + keyValue.getKey().hashCode();
			hash = 31 * hash + keyValue.getValue().hashCode();
		}
		return finish(hash, error);
	}

	private static int finish(int hash, @Nullable String error) {
		hash = 31 * hash + ((error != null) ? error.hashCode() : 0);
		return hash ^ (hash >>> 16);
	}

	/**
	 * Return the cached meter of the combination held in a context's map of key values,
	 * if its key set is known and the combination cached. Allocates nothing.
	 * @param name the observation name
	 * @param keyValues the context's low-cardinality key values, by key
	 * @param error the error value of a timer, or {@code null} for a long task timer
	 * @return the meter or {@code null}
	 */
	public @Nullable Meter find(String name, Map<String, KeyValue> keyValues, @Nullable String error) {
		KeySets known = keySetsOf(name);
		if (known == null) {
			return null;
		}
		int size = keyValues.size();
		for (String[] keys : known.sets) {
			if (keys.length != size) {
				continue;
			}
			int hash = name.hashCode();
			boolean complete = true;
			for (String key : keys) {
				KeyValue keyValue = keyValues.get(key);
				if (keyValue == null) {
					complete = false;
					break;
				}
				hash = 31 * hash + key.hashCode();
				hash = 31 * hash + keyValue.getValue().hashCode();
			}
			if (complete) {
				hash = finish(hash, error);
				CacheTable.@Nullable Entry[] entries = this.table.entries();
				int mask = entries.length - 1;
				int index = hash & mask;
				CacheTable.Entry entry;
				while ((entry = entries[index]) != null) {
					if (entry.hash == hash && ((Entry) entry).matches(name, keyValues, size, error)) {
						return (Meter) entry.value;
					}
					index = (index + 1) & mask;
				}
				// The key values are exactly this key set: no other set of the same size
				// can hold them.
				return null;
			}
		}
		return null;
	}

	private @Nullable KeySets keySetsOf(String name) {
		@Nullable KeySets[] table = this.keySets;
		int mask = table.length - 1;
		int index = spread(name.hashCode()) & mask;
		KeySets each;
		while ((each = table[index]) != null) {
			if (each.name.equals(name)) {
				return each;
			}
			index = (index + 1) & mask;
		}
		return null;
	}

	private static int spread(int hash) {
		return hash ^ (hash >>> 16);
	}

	/**
	 * Return the cached meter of a key, if any.
	 * @param hash the key's {@link #hash}
	 * @param name the observation name
	 * @param keyValues the low-cardinality key values
	 * @param error the error value of a timer, or {@code null} for a long task timer
	 * @return the meter or {@code null}
	 */
	public @Nullable Meter get(int hash, String name, KeyValues keyValues, @Nullable String error) {
		CacheTable.@Nullable Entry[] entries = this.table.entries();
		int mask = entries.length - 1;
		int index = hash & mask;
		CacheTable.Entry entry;
		while ((entry = entries[index]) != null) {
			if (entry.hash == hash && ((Entry) entry).matches(name, keyValues, error)) {
				return (Meter) entry.value;
			}
			index = (index + 1) & mask;
		}
		return null;
	}

	/**
	 * Return whether a new entry would still fit. A racy read: the answer only decides
	 * whether a miss is worth remembering.
	 * @return whether the cache has room
	 */
	public boolean hasRoom() {
		return this.table.hasRoom();
	}

	/**
	 * Return the removal count to pass to {@link #put} after resolving a meter.
	 * @return the number of removals so far
	 */
	public long removals() {
		return this.table.removals();
	}

	/**
	 * Remember a meter unless the cache is full, the key is present, or a meter was
	 * removed from the registry since {@code removalsBefore} was read.
	 * @param hash the key's {@link #hash}
	 * @param name the observation name
	 * @param keyValues the low-cardinality key values
	 * @param error the error value of a timer, or {@code null} for a long task timer
	 * @param meter the meter the registry returned for the key
	 * @param removalsBefore {@link #removals()} read before the meter was resolved
	 */
	public void put(int hash, String name, KeyValues keyValues, @Nullable String error, Meter meter,
			long removalsBefore) {
		synchronized (this.lock) {
			Entry entry = new Entry(hash, name, toArray(keyValues), error, meter);
			if (this.table.put(entry, removalsBefore)) {
				rememberKeySet(name, entry.keysAndValues);
			}
		}
	}

	/**
	 * Remember the keys of an entry's key values among the key sets of its name. Called
	 * under {@link #lock}.
	 * @param name the observation name
	 * @param keysAndValues the entry's keys and values
	 */
	private void rememberKeySet(String name, String[] keysAndValues) {
		KeySets known = keySetsOf(name);
		String[][] sets = (known != null) ? known.sets : NO_KEY_SETS;
		for (String[] keys : sets) {
			if (sameKeys(keys, keysAndValues)) {
				return;
			}
		}
		if (this.keySetCount >= this.maxSize) {
			return;
		}
		String[] keys = new String[keysAndValues.length / 2];
		for (int i = 0; i < keys.length; i++) {
			keys[i] = keysAndValues[2 * i];
		}
		String[][] extended = new String[sets.length + 1][];
		System.arraycopy(sets, 0, extended, 0, sets.length);
		extended[sets.length] = keys;
		@Nullable KeySets[] current = this.keySets;
		int capacity = current.length;
		while (capacity < 2 * (this.keySetCount + 1)) {
			capacity <<= 1;
		}
		@Nullable KeySets[] next = new KeySets[capacity];
		int mask = capacity - 1;
		for (KeySets each : current) {
			if (each != null && each != known) {
				int index = spread(each.name.hashCode()) & mask;
				while (next[index] != null) {
					index = (index + 1) & mask;
				}
				next[index] = each;
			}
		}
		int index = spread(name.hashCode()) & mask;
		while (next[index] != null) {
			index = (index + 1) & mask;
		}
		next[index] = new KeySets(name, extended);
		this.keySetCount++;
		this.keySets = next;
	}

	private static boolean sameKeys(String[] keys, String[] keysAndValues) {
		if (keys.length * 2 != keysAndValues.length) {
			return false;
		}
		for (int i = 0; i < keys.length; i++) {
			if (!keys[i].equals(keysAndValues[2 * i])) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Forget every entry that holds the given meter. Called when the registry removes it.
	 * @param meter the removed meter
	 */
	public void evict(Meter meter) {
		this.table.evict(meter);
	}

	/**
	 * Forget every entry.
	 */
	public void clear() {
		synchronized (this.lock) {
			this.table.clear();
			this.keySetCount = 0;
			this.keySets = new KeySets[INITIAL_CAPACITY];
		}
	}

	/**
	 * Return the number of entries.
	 * @return the number of cached meters
	 */
	public int size() {
		return this.table.size();
	}

	private static String[] toArray(KeyValues keyValues) {
		int count = 0;
		for (KeyValue ignored : keyValues) {
			count++;
		}
		String[] keysAndValues = new String[2 * count];
		int index = 0;
		for (KeyValue keyValue : keyValues) {
			keysAndValues[index++] = keyValue.getKey();
			keysAndValues[index++] = keyValue.getValue();
		}
		return keysAndValues;
	}

	/**
	 * One key and its meter. Immutable: readers that see the reference see the fields
	 * (and the array's elements) as written before publication.
	 */
	private static final class Entry extends CacheTable.Entry {

		final String name;

		/**
		 * Keys at even indexes, their values at the odd ones, in the key values' order.
		 */
		final String[] keysAndValues;

		final @Nullable String error;

		Entry(int hash, String name, String[] keysAndValues, @Nullable String error, Meter meter) {
			super(hash, meter);
			this.name = name;
			this.keysAndValues = keysAndValues;
			this.error = error;
		}

		@Override
		public boolean sameKey(CacheTable.Entry other) {
			Entry entry = (Entry) other;
			return this.name.equals(entry.name) && Objects.equals(this.error, entry.error)
					&& Arrays.equals(this.keysAndValues, entry.keysAndValues);
		}

		boolean matches(String name, KeyValues keyValues, @Nullable String error) {
			if (!this.name.equals(name)) {
				return false;
			}
			if ((error != null) ? !error.equals(this.error) : this.error != null) {
				return false;
			}
			// KeyValues are sorted by key and free of duplicate keys, so equal sets of
			// key values come in the same order.
			String[] keysAndValues = this.keysAndValues;
			int index = 0;
			for (KeyValue keyValue : keyValues) {
				if (index == keysAndValues.length || !keysAndValues[index].equals(keyValue.getKey())
						|| !keysAndValues[index + 1].equals(keyValue.getValue())) {
					return false;
				}
				index += 2;
			}
			return index == keysAndValues.length;
		}

		boolean matches(String name, Map<String, KeyValue> keyValues, int size, @Nullable String error) {
			if (!this.name.equals(name)) {
				return false;
			}
			if ((error != null) ? !error.equals(this.error) : this.error != null) {
				return false;
			}
			String[] keysAndValues = this.keysAndValues;
			if (keysAndValues.length != 2 * size) {
				return false;
			}
			for (int index = 0; index < keysAndValues.length; index += 2) {
				KeyValue keyValue = keyValues.get(keysAndValues[index]);
				if (keyValue == null || !keysAndValues[index + 1].equals(keyValue.getValue())) {
					return false;
				}
			}
			return true;
		}

	}

	/**
	 * The sets of keys met with one observation name, each sorted as {@link KeyValues}
	 * sorts them.
	 */
	private static final class KeySets {

		final String name;

		final String[][] sets;

		KeySets(String name, String[][] sets) {
			this.name = name;
			this.sets = sets;
		}

	}

}
