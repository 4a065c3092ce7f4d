package io.github.leanscrape.exposition;

import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * An {@link OutputStream} that collects one scrape's output in pooled chunks.
 * <p>
 * Nothing is ever copied to grow it: a full chunk is followed by a new one from the pool.
 * When the output is complete, {@link #toBody()} hands the chunks over to a
 * {@link PooledBody} without copying; on failure {@link #discard()} gives them back. Not
 * thread-safe: one scrape writes it.
 *
 * @author leanscrape
 */
public final class ChunkedOutput extends OutputStream implements PooledBody.RangeSink {

	/**
	 * The least size of a segment of a body (see {@link #endSegmentAt(int)}): smaller
	 * segments let more of a body be sent compressed as it was when little changed, and
	 * compress a little worse, each from an empty history.
	 */
	public static final long MIN_SEGMENT_BYTES = 32 * 1024;

	/**
	 * The length past which a segment ends at the next place, whatever the place's key.
	 */
	public static final long MAX_SEGMENT_BYTES = 256 * 1024;

	/**
	 * One place in this many, chosen by its key, ends a segment once it is long enough:
	 * segments of about 32 KiB plus four places (a family or a block of series each).
	 */
	private static final int PLACE_MASK = 3;

	private static final long[] NO_SEGMENTS = {};

	private static final byte[] PLUS_INF = { '+', 'I', 'n', 'f' };

	private static final byte[] MINUS_INF = { '-', 'I', 'n', 'f' };

	private static final int MAX_VARINT_BYTES = 10;

	private static final VarHandle LITTLE_ENDIAN_LONG = MethodHandles.byteArrayViewVarHandle(long[].class,
			ByteOrder.LITTLE_ENDIAN);

	private final ChunkPool pool;

	/** The slots below {@link #chunkCount} hold the chunks written, the others none. */
	private byte[] @Nullable [] chunks;

	private int chunkCount;

	private byte[] chunk;

	private int position;

	private final BodyKind kind;

	/** The buffer whose working buffer this is, or {@code null}. */
	private final @Nullable ChunkedOutput parent;

	/** The most chunks this buffer held at once. */
	private int peakChunkCount = 1;

	/** The most chunks a working buffer of this one held at once. */
	private int workingChunks;

	private boolean handedOver;

	private final byte[] digits = new byte[20];

	/**
	 * Where each segment of the output ends, below {@link #segmentCount}: the places at
	 * which a compressor may start afresh (see {@link PooledBody#segmentCount()}).
	 */
	private long[] segmentEnds = NO_SEGMENTS;

	private int segmentCount;

	private final StringBuilder doubleText = new StringBuilder(32);

	/** What the renderer notes about this output, handed over with it. */
	private @Nullable RenderRecord record;

	/** Told of each segment as it ends, or {@code null}. */
	private @Nullable SegmentObserver segmentObserver;

	/** Whether a range of a body is being copied in ({@link #copy}). */
	private boolean copying;

	/**
	 * Create a buffer expecting about {@code expectedSize} bytes of output.
	 * @param pool the pool to take chunks from
	 * @param kind what kind of body this is, kept with the body for its size hints
	 * @param expectedSize the expected size, from the previous scrape of the same kind
	 */
	public ChunkedOutput(ChunkPool pool, BodyKind kind, long expectedSize) {
		this(pool, kind, expectedSize, null);
	}

	private ChunkedOutput(ChunkPool pool, BodyKind kind, long expectedSize, @Nullable ChunkedOutput parent) {
		this.parent = parent;
		this.pool = pool;
		this.kind = kind;
		int expectedChunks = (int) Math.min(1 << 20, expectedSize / pool.chunkSize() + 1);
		this.chunks = new byte[Math.max(4, expectedChunks)][];
		this.chunk = pool.acquire();
		this.chunks[this.chunkCount++] = this.chunk;
	}

	@Override
	public void write(int b) {
		if (this.position == this.chunk.length) {
			nextChunk();
		}
		this.chunk[this.position++] = (byte) b;
	}

	@Override
	public void write(byte[] bytes, int offset, int length) {
		while (length > 0) {
			if (this.position == this.chunk.length) {
				nextChunk();
			}
			int n = Math.min(length, this.chunk.length - this.position);
			System.arraycopy(bytes, offset, this.chunk, this.position, n);
			this.position += n;
			offset += n;
			length -= n;
		}
	}

	/**
	 * Write the characters of an ASCII string, one byte each.
	 * @param ascii a string whose characters are all below 128
	 */
	public void writeAscii(String ascii) {
		int length = ascii.length();
		int offset = 0;
		while (offset < length) {
			if (this.position == this.chunk.length) {
				nextChunk();
			}
			int n = Math.min(length - offset, this.chunk.length - this.position);
			// getBytes(int, int, byte[], int) copies the low byte of each char without
			// allocating: exact for ASCII.
			ascii.getBytes(offset, offset + n, this.chunk, this.position);
			this.position += n;
			offset += n;
		}
	}

	/**
	 * Write a whole array.
	 * @param bytes the bytes to write
	 */
	public void write(byte[] bytes) {
		write(bytes, 0, bytes.length);
	}

	/**
	 * Write a long in decimal, as {@link Long#toString(long)} would, without allocating.
	 * @param value the value
	 */
	public void writeLong(long value) {
		if (value == Long.MIN_VALUE) {
			writeAscii("-9223372036854775808");
			return;
		}
		if (value < 0) {
			write('-');
			value = -value;
		}
		int position = this.digits.length;
		do {
			this.digits[--position] = (byte) ('0' + (value % 10));
			value /= 10;
		}
		while (value > 0);
		write(this.digits, position, this.digits.length - position);
	}

	/**
	 * Write a double exactly as client_java's text writers do: {@code +Inf},
	 * {@code -Inf}, otherwise the characters of {@link Double#toString(double)} on this
	 * JVM.
	 * <p>
	 * Integral values below 10<sup>7</sup> in magnitude (the common case: counts,
	 * integral gauges, bucket bounds) print as their digits and {@code .0} on every JDK,
	 * so they are written directly. Every other value goes through
	 * {@link StringBuilder#append(double)}, which the JDK specifies to produce the
	 * characters of {@code Double.toString} and which, into this reused builder,
	 * allocates nothing.
	 * @param value the value
	 */
	public void writeDouble(double value) {
		if (value == Double.POSITIVE_INFINITY) {
			write(PLUS_INF, 0, PLUS_INF.length);
			return;
		}
		if (value == Double.NEGATIVE_INFINITY) {
			write(MINUS_INF, 0, MINUS_INF.length);
			return;
		}
		long integral = (long) value;
		if (integral == value && integral > -10_000_000L && integral < 10_000_000L
				&& (integral != 0 || Double.doubleToRawLongBits(value) == 0L)) {
			writeLong(integral);
			write('.');
			write('0');
			return;
		}
		this.doubleText.setLength(0);
		this.doubleText.append(value);
		writeAscii(this.doubleText);
	}

	/**
	 * Write the ASCII characters of a builder, one byte each.
	 * @param ascii characters all below 128
	 */
	public void writeAscii(StringBuilder ascii) {
		int length = ascii.length();
		for (int i = 0; i < length; i++) {
			if (this.position == this.chunk.length) {
				nextChunk();
			}
			this.chunk[this.position++] = (byte) ascii.charAt(i);
		}
	}

	/**
	 * Write a protobuf base-128 varint: seven bits a byte, least significant first, the
	 * high bit set on every byte but the last. Negative values take ten bytes, as
	 * protobuf writes an int64.
	 * @param value the value
	 */
	public void writeVarint(long value) {
		if (this.chunk.length - this.position >= MAX_VARINT_BYTES) {
			// The usual case: room for the longest varint, so no check per byte.
			byte[] chunk = this.chunk;
			int position = this.position;
			while ((value & ~0x7FL) != 0) {
				chunk[position++] = (byte) ((value & 0x7F) | 0x80);
				value >>>= 7;
			}
			chunk[position++] = (byte) value;
			this.position = position;
			return;
		}
		while ((value & ~0x7FL) != 0) {
			write((int) ((value & 0x7F) | 0x80));
			value >>>= 7;
		}
		write((int) value);
	}

	/**
	 * Write eight bytes little-endian, as protobuf writes a {@code fixed64} or, given
	 * {@link Double#doubleToRawLongBits}, a {@code double}.
	 * @param value the bits
	 */
	public void writeFixed64(long value) {
		if (this.chunk.length - this.position >= Long.BYTES) {
			LITTLE_ENDIAN_LONG.set(this.chunk, this.position, value);
			this.position += Long.BYTES;
			return;
		}
		for (int i = 0; i < Long.BYTES; i++) {
			write((int) (value >>> (i * 8)));
		}
	}

	/**
	 * Append what another buffer holds, then give its chunks back to the pool but the
	 * first, so that it can be written again.
	 * @param other a buffer of the same pool
	 */
	public void append(ChunkedOutput other) {
		for (int i = 0; i < other.chunkCount - 1; i++) {
			byte[] full = Objects.requireNonNull(other.chunks[i]);
			write(full, 0, full.length);
		}
		write(other.chunk, 0, other.position);
		other.clear();
	}

	/**
	 * Return a new, empty buffer on the same pool, for output that is written before it
	 * can be appended to this one. What it holds at most counts in
	 * {@link #workingBytes()} once it is discarded.
	 * @return the buffer, to be discarded when done
	 */
	public ChunkedOutput workingBuffer() {
		return new ChunkedOutput(this.pool, this.kind, 0, this);
	}

	/**
	 * Return the most bytes of chunks that working buffers of this one held at once,
	 * which a rendering needs from the pool beside its output.
	 * @return the bytes, in whole chunks
	 */
	public long workingBytes() {
		return (long) this.workingChunks * this.pool.chunkSize();
	}

	/**
	 * End a segment at a place the renderer names by a key that stays the same from
	 * scrape to scrape while the meters do (a family's name, with where a block of its
	 * series starts), when the segment is long enough and the key is one of those chosen
	 * to end segments, or the segment has grown past {@link #MAX_SEGMENT_BYTES}. The
	 * choice depends on the place rather than on how many bytes came before it, as
	 * content-defined chunking does, so that a family added or removed moves the ends of
	 * the segments around it only: the segments after it end where they ended before, and
	 * can be sent compressed as they were.
	 * @param place the key of the place
	 */
	public void endSegmentAt(int place) {
		long size = size();
		long last = (this.segmentCount > 0) ? this.segmentEnds[this.segmentCount - 1] : 0;
		long length = size - last;
		if (length < MIN_SEGMENT_BYTES) {
			return;
		}
		if (length < MAX_SEGMENT_BYTES && (mix(place) & PLACE_MASK) != 0) {
			return;
		}
		endSegment(1);
	}

	/**
	 * Spread the bits of a key over the low ones (MurmurHash3's finalizer): a family's
	 * blocks have keys one apart.
	 * @param key the key
	 * @return the mixed key
	 */
	private static int mix(int key) {
		int h = key;
		h ^= h >>> 16;
		h *= 0x85ebca6b;
		h ^= h >>> 13;
		h *= 0xc2b2ae35;
		h ^= h >>> 16;
		return h;
	}

	/**
	 * End a segment here when at least {@code minBytes} were written since the last one
	 * ended (see {@link #endSegmentAt(int)}).
	 * @param minBytes the least size of a segment
	 */
	public void endSegment(long minBytes) {
		assertNotHandedOver();
		long size = size();
		long last = (this.segmentCount > 0) ? this.segmentEnds[this.segmentCount - 1] : 0;
		if (size - last < minBytes || size == last) {
			return;
		}
		if (this.segmentCount == this.segmentEnds.length) {
			this.segmentEnds = Arrays.copyOf(this.segmentEnds, Math.max(16, this.segmentCount * 2));
		}
		this.segmentEnds[this.segmentCount++] = size;
		SegmentObserver observer = this.segmentObserver;
		if (observer != null) {
			observer.segmentEnded(this, last, size);
		}
	}

	/**
	 * Tell an observer of each segment as it ends, while the output is written; the last
	 * one, which ends with the output, when the output becomes a body
	 * ({@link #toBody()}). Not for an output that is {@linkplain #clear() cleared}.
	 * @param observer the observer, or {@code null}
	 */
	public void setSegmentObserver(@Nullable SegmentObserver observer) {
		this.segmentObserver = observer;
	}

	/**
	 * Append a range of a body, such as a block of series unchanged since the body the
	 * renderer copies from.
	 * @param body the body
	 * @param start where the range starts
	 * @param length its length
	 */
	public void copy(PooledBody body, long start, long length) {
		this.copying = true;
		try {
			body.writeRange(start, length, this);
		}
		finally {
			this.copying = false;
		}
	}

	/**
	 * Return where the last segment ended, or zero.
	 * @return the offset after the last segment's last byte
	 */
	public long lastSegmentEnd() {
		return (this.segmentCount > 0) ? this.segmentEnds[this.segmentCount - 1] : 0;
	}

	/**
	 * Return whether a range of what was written holds the same bytes as a range of a
	 * body.
	 * @param start where the range of this output starts
	 * @param other the body, whose range the caller checked it
	 * {@linkplain PooledBody#holds holds}
	 * @param otherStart where the range of the body starts
	 * @param length the length of both ranges, within what was written
	 * @return {@code true} when the bytes are equal
	 */
	public boolean rangeEquals(long start, PooledBody other, long otherStart, long length) {
		int chunkSize = this.pool.chunkSize();
		long done = 0;
		while (done < length) {
			long here = start + done;
			int offset = (int) (here % chunkSize);
			int n = (int) Math.min(length - done, chunkSize - offset);
			byte[] chunk = Objects.requireNonNull(this.chunks[(int) (here / chunkSize)]);
			if (!other.rangeEquals(otherStart + done, chunk, offset, n)) {
				return false;
			}
			done += n;
		}
		return true;
	}

	/**
	 * Forget what was written, keeping the first chunk.
	 */
	public void clear() {
		assertNotHandedOver();
		if (this.segmentObserver != null) {
			throw new IllegalStateException("An observed output is never cleared");
		}
		this.segmentCount = 0;
		for (int i = 1; i < this.chunkCount; i++) {
			this.pool.release(Objects.requireNonNull(this.chunks[i]));
			this.chunks[i] = null;
		}
		this.chunk = Objects.requireNonNull(this.chunks[0]);
		this.chunkCount = 1;
		this.position = 0;
	}

	/**
	 * Return how many bytes have been written.
	 * @return the size of the output so far
	 */
	public long size() {
		return (long) (this.chunkCount - 1) * this.pool.chunkSize() + this.position;
	}

	private void nextChunk() {
		// A scrape is long, CPU-bound work beside the application's requests: offer the
		// core to them once per chunk (64 KiB of output, well under a millisecond of
		// work) rather than holding it for the scheduler's whole time slice.
		Thread.yield();
		if (this.chunkCount == this.chunks.length) {
			byte[] @Nullable [] larger = new byte[this.chunks.length * 2][];
			System.arraycopy(this.chunks, 0, larger, 0, this.chunkCount);
			this.chunks = larger;
		}
		SegmentObserver observer = this.segmentObserver;
		if (observer != null && !this.copying) {
			// Before taking the next chunk, so that one given back can be it; not while
			// a body's chunk is being copied in, which the observer may give back.
			observer.chunkFilled(size());
		}
		this.chunk = this.pool.acquire();
		this.chunks[this.chunkCount++] = this.chunk;
		this.peakChunkCount = Math.max(this.peakChunkCount, this.chunkCount);
		this.position = 0;
	}

	/**
	 * Keep what the renderer notes about this output with the body it becomes; the record
	 * is told when that body, or this output if discarded, is gone.
	 * @param record the record
	 */
	public void setRecord(RenderRecord record) {
		assertNotHandedOver();
		this.record = record;
	}

	/**
	 * Hand the chunks over to a body. The buffer must not be used afterwards.
	 * @return the body holding this buffer's output
	 */
	public PooledBody toBody() {
		assertNotHandedOver();
		SegmentObserver observer = this.segmentObserver;
		long last = lastSegmentEnd();
		if (observer != null && (this.segmentCount == 0 || last < size())) {
			observer.segmentEnded(this, last, size());
		}
		// Handed over once the body exists: where making it fails, discard() still gives
		// the chunks back.
		PooledBody body = new PooledBody(this.pool, this.kind, this.chunks, this.chunkCount, this.position,
				this.segmentEnds, this.segmentCount, this.record);
		this.handedOver = true;
		return body;
	}

	/**
	 * Give the chunks back to the pool, discarding the output. Does nothing once the
	 * chunks were handed over or discarded.
	 */
	public void discard() {
		if (this.handedOver) {
			return;
		}
		this.handedOver = true;
		if (this.record != null) {
			this.record.bodyReleased();
		}
		if (this.parent != null) {
			this.parent.workingChunks = Math.max(this.parent.workingChunks, this.peakChunkCount);
		}
		for (int i = 0; i < this.chunkCount; i++) {
			this.pool.release(Objects.requireNonNull(this.chunks[i]));
			this.chunks[i] = null;
		}
	}

	private void assertNotHandedOver() {
		if (this.handedOver) {
			throw new IllegalStateException("Buffer already handed over or discarded");
		}
	}

}
