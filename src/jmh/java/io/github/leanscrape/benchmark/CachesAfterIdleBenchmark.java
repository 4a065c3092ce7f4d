package io.github.leanscrape.benchmark;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What idling costs a thread's next reads of its own data on the machine the benchmarks
 * run on: the thread reads its data, so that the data is in the caches as warm as it
 * gets, then parks for {@link #idleMicros}, and the same read after the idle is timed.
 * Over HTTP the threads that send a scrape's body (the server's, the kernel's, the
 * client's) idle while the body is rendered, as long as a rendering; this shows what such
 * an idle costs here, with nothing of the starter or of HTTP involved. What slows the
 * read is not told apart: the data leaving the caches (the shared host's other work on
 * the idle core, the core's sleep states), the core's clock or its waking, or the thread
 * waking on the other core.
 *
 * @author leanscrape
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class CachesAfterIdleBenchmark {

	/**
	 * How much data the thread reads, in KiB: within a core's L2 cache here (1 MiB), or
	 * beyond it.
	 */
	@Param({ "512", "4096" })
	public int kibibytes;

	/**
	 * How long the thread parks between warming its data and the timed read, in
	 * microseconds: none, or up to longer than a rendering of 100,000 series.
	 */
	@Param({ "0", "500", "2000", "8000", "30000" })
	public int idleMicros;

	private long[] data = new long[0];

	/**
	 * The sum of the untimed read, kept so that the compiler cannot drop that read.
	 */
	private long warmSum;

	/**
	 * Make the data.
	 */
	@Setup(Level.Trial)
	public void allocate() {
		this.data = new long[this.kibibytes * 128];
		for (int i = 0; i < this.data.length; i++) {
			this.data[i] = i;
		}
	}

	/**
	 * Read the data, so that it is in the caches, then idle.
	 */
	@Setup(Level.Invocation)
	public void warmThenIdle() {
		this.warmSum += read();
		if (this.idleMicros > 0) {
			LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(this.idleMicros));
		}
	}

	/**
	 * Read one long of each 64-byte cache line of the data.
	 * @return their sum
	 */
	@Benchmark
	public long read() {
		long[] data = this.data;
		long sum = 0;
		for (int i = 0; i < data.length; i += 8) {
			sum += data[i];
		}
		return sum;
	}

}
