package io.github.leanscrape.benchmark;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

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
 * The starter's scrape as {@link ScrapeBenchmark#leanscrape} runs it, with the CPU's
 * caches as a scrape over HTTP finds them. Back to back in JMH, each rendering finds in
 * the caches much of what the previous one read (the meters, the index) and wrote (the
 * pooled chunks); over HTTP, between two renderings the previous body travels to the
 * socket (and, on Reactor Netty, into direct buffers first), and in production a scrape
 * comes every 10 to 30 seconds, long after the caches have turned over. So before each
 * scrape, outside the measured time, {@link #sweptMebibytes} MiB of memory are written
 * through the caches, one write per cache line ({@code 0} sweeps nothing: then it is
 * {@link ScrapeBenchmark#leanscrape}, timed one scrape at a time). The sweep writes, so
 * the rendering also pays for writing those lines back. Run it with one thread.
 * <p>
 * Its name does not contain {@code ScrapeBenchmark}, so that the benchmark gate's
 * selection of that class leaves it out.
 *
 * @author leanscrape
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(3)
public class ColdCacheScrapeRenderBenchmark {

	private static final int CACHE_LINE = 64;

	/**
	 * MiB written through the caches before each scrape.
	 */
	@Param({ "0", "32", "128" })
	public int sweptMebibytes;

	private byte[] sweep = new byte[0];

	/**
	 * Allocate the memory to sweep.
	 */
	@Setup(Level.Trial)
	public void allocate() {
		this.sweep = new byte[this.sweptMebibytes << 20];
	}

	/**
	 * Write the memory through the caches (JMH does not count the time).
	 */
	@Setup(Level.Invocation)
	public void sweepCaches() {
		byte[] sweep = this.sweep;
		for (int i = 0; i < sweep.length; i += CACHE_LINE) {
			sweep[i]++;
		}
	}

	/**
	 * One scrape through the starter's whole path, as {@link ScrapeBenchmark#leanscrape}.
	 * @param state the registry and endpoints
	 * @return the response
	 * @throws IOException never: the sink does not fail
	 */
	@Benchmark
	public Object leanscrape(ScrapeState state) throws IOException {
		return ScrapeBenchmark.scrapeWithStarter(state);
	}

}
