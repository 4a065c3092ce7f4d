package io.github.leanscrape.benchmark;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.github.leanscrape.compression.BodyEncoder;
import io.github.leanscrape.exposition.direct.DirectRenderer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.AuxCounters;
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

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;

/**
 * A scrape as Prometheus asks for it (a content coding in {@code Accept-Encoding})
 * through the starter's whole path but HTTP, when some of the counters changed since the
 * last scrape: rendering alone ({@code identity}), rendering plus gzip, rendering plus
 * zstd, or scrapers asking different codings in turn ({@code gzip-zstd}: a scrape in
 * gzip, the next in zstd, and so on; {@code gzip-zstd-identity}: three scrapers, one
 * uncompressed; {@code gzip@3}, {@code zstd@3}, {@code identity@3}: the same three in
 * turn, only the named one's scrapes timed, the other two's made before each, outside the
 * timed part); with what did not change since the last scrape reused ({@code
 * reuse=true}, the default, with the starter's other defaults: zstd in one frame) or the
 * whole body formatted and compressed every time ({@code reuse=false}), in the same run.
 * <p>
 * {@code change} is the share of the counters incremented before each scrape: {@code 0},
 * {@code 1}, {@code 10-blocks} (a tenth of the counters, in runs of 500 one after another
 * in the registry's order, as whole families of a busy part of a service change),
 * {@code 10-scattered} (a tenth, spread evenly: every block of series has changes, as
 * when a tenth of a large family changes, which Micrometer orders by hash), {@code 50},
 * {@code 100}. Which counters change is fixed per trial, so every scrape changes the same
 * ones again. Two more are the worst cases of reuse, each on top of {@code 10-blocks}:
 * {@code first} (what is kept is dropped before each scrape, so that every scrape is a
 * kind's first, with nothing to copy from) and {@code family} (a family of
 * {@value #ADDED_FAMILY_SIZE} counters, whose name sorts it into the middle of the body,
 * added before one scrape and removed before the next, so that all that follows it moves
 * in every timed scrape's body against the last of its kind: one coding, or codings each
 * in turn; where one of three is timed, the other two see the move first).
 * <p>
 * {@code boot} is Spring Boot's endpoint after the same change, for comparison: it does
 * not compress (Spring Boot leaves that to the server, and its servers do not compress by
 * default), whatever the coding asked for.
 * <p>
 * Besides the time and the bytes allocated, each iteration reports the bytes sent
 * ({@code bytesSent}) and the scrapes made ({@code scrapes}): their ratio is the size of
 * a body as sent. {@code scrape} also reports what its scrapes reused ({@link Reused}):
 * the blocks of series copied from the last body of their kind, and the compressed
 * segments sent as they were, summed over the codings; divided by {@code scrapes}, per
 * scrape. The gate holds them to a floor.
 *
 * @author leanscrape
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class ChangingScrapeBenchmark {

	private static final int BLOCK = 500;

	private static final int ADDED_FAMILY_SIZE = 50;

	/**
	 * How many series the registry has.
	 */
	@Param({ "100000" })
	public int seriesCount = 100_000;

	/**
	 * The format of the body: {@code text}, {@code openmetrics} or {@code protobuf}.
	 */
	@Param({ "openmetrics" })
	public String format = "openmetrics";

	/**
	 * The content coding asked for: {@code identity}, {@code gzip} or {@code zstd}; or
	 * codings asked for in turn, separated by {@code -}.
	 */
	@Param({ "identity", "gzip", "zstd", "gzip-zstd", "gzip-zstd-identity", "gzip@3", "zstd@3", "identity@3" })
	public String coding = "gzip";

	/**
	 * How much changes before each scrape (see the class's description).
	 */
	@Param({ "0", "1", "10-blocks", "10-scattered", "50", "100", "first", "family" })
	public String change = "10-blocks";

	/**
	 * Whether segments that did not change are sent compressed as they were.
	 */
	@Param({ "true", "false" })
	public boolean reuse = true;

	private final CountingSink sink = new CountingSink();

	private @Nullable SyntheticRegistry registry;

	/** The counters of the family added mid-body, while it is registered. */
	private final List<Meter> addedFamily = new ArrayList<>();

	/** The name of the family added mid-body: the middle counter's, with a suffix. */
	private String addedFamilyName = "";

	private @Nullable LeanscrapeStarter starter;

	private @Nullable PrometheusScrapeEndpoint bootEndpoint;

	/** The {@code Accept-Encoding} of each scraper in turn, {@code null} for none. */
	private final List<@Nullable List<String>> acceptEncodings = new ArrayList<>();

	private int turn;

	/**
	 * The other scrapers' {@code Accept-Encoding}, scraped untimed before each timed one.
	 */
	private final List<@Nullable List<String>> untimed = new ArrayList<>();

	private PrometheusOutputFormat outputFormat = PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100;

	private Counter[] changing = new Counter[0];

	/**
	 * The starter's encoders, one per content coding, whose counters {@link Reused}
	 * reads.
	 */
	private BodyEncoder[] encoders = new BodyEncoder[0];

	/**
	 * Build the registry and the starter, and choose the counters that change.
	 */
	@Setup(Level.Trial)
	public void setUp() {
		SyntheticRegistry registry = SyntheticRegistry.build(this.seriesCount);
		this.registry = registry;
		this.starter = LeanscrapeStarter.create(registry.meterRegistry(), PrometheusConfig.DEFAULT,
				"leanscrape.reuse.enabled=" + this.reuse);
		this.encoders = ScrapeState.nonNull(this.starter).scraper().encoders().toArray(new BodyEncoder[0]);
		this.bootEndpoint = new PrometheusScrapeEndpoint(registry.prometheusRegistry(),
				PrometheusConfig.DEFAULT.prometheusProperties());
		this.outputFormat = ScrapeState.outputFormat(this.format);
		if (this.coding.endsWith("@3")) {
			String timed = this.coding.substring(0, this.coding.length() - 2);
			this.acceptEncodings.add(acceptEncoding(timed));
			for (String other : List.of("gzip", "zstd", "identity")) {
				if (!other.equals(timed)) {
					this.untimed.add(acceptEncoding(other));
				}
			}
		}
		else {
			for (String each : this.coding.split("-")) {
				this.acceptEncodings.add(acceptEncoding(each));
			}
		}
		this.changing = changingCounters(registry, this.change);
		if (this.change.equals("family")) {
			// Named after the middle changing counter's family, it sorts beside it.
			this.addedFamilyName = this.changing[this.changing.length / 2].getId().getName() + ".added";
		}
	}

	/**
	 * Choose the counters that change before each scrape.
	 * @param registry the registry
	 * @param change how much changes (see the class's description)
	 * @return the counters
	 */
	static Counter[] changingCounters(SyntheticRegistry registry, String change) {
		List<Counter> counters = new ArrayList<>();
		for (Meter meter : registry.meterRegistry().getMeters()) {
			if (meter instanceof Counter counter) {
				counters.add(counter);
			}
		}
		// The registry's order is not the body's: sort by name and tags, as the body is
		// (each key made once: a sort would make each many times).
		Map<Counter, String> keys = new HashMap<>();
		for (Counter counter : counters) {
			keys.put(counter, counter.getId().toString());
		}
		counters.sort(Comparator.comparing(keys::get));
		return choose(counters, change).toArray(new Counter[0]);
	}

	private static @Nullable List<String> acceptEncoding(String coding) {
		return coding.equals("identity") ? null : List.of(coding);
	}

	/**
	 * Before each timed scrape: add or remove the family ({@code family}); where only one
	 * of three scrapers in turn is timed, let the other two scrape first, each after the
	 * change it would see; and drop what is kept ({@code first}).
	 * @throws IOException never: the sink does not fail
	 */
	@Setup(Level.Invocation)
	public void scrapeUntimed() throws IOException {
		LeanscrapeStarter starter = ScrapeState.nonNull(this.starter);
		if (this.change.equals("family")) {
			addOrRemoveFamily(ScrapeState.nonNull(this.registry));
		}
		for (@Nullable
		List<String> acceptEncoding : this.untimed) {
			for (Counter counter : this.changing) {
				counter.increment();
			}
			ScrapeBenchmark.scrapeWithStarter(starter.endpoint(), starter.responder(), this.outputFormat,
					acceptEncoding, this.sink);
		}
		if (this.change.equals("first")) {
			starter.scraper().forgetKept();
		}
	}

	private void addOrRemoveFamily(SyntheticRegistry registry) {
		if (!this.addedFamily.isEmpty()) {
			for (Meter meter : this.addedFamily) {
				registry.meterRegistry().remove(meter);
			}
			this.addedFamily.clear();
			return;
		}
		for (int i = 0; i < ADDED_FAMILY_SIZE; i++) {
			this.addedFamily.add(Counter.builder(this.addedFamilyName)
				.tag("method", "GET")
				.tag("status", "200")
				.tag("uri", "/api/v1/added/" + i)
				.register(registry.meterRegistry()));
		}
	}

	private static List<Counter> choose(List<Counter> counters, String change) {
		List<Counter> chosen = new ArrayList<>();
		int size = counters.size();
		switch (change) {
			case "0" -> {
			}
			case "10-blocks", "first", "family" -> {
				// Blocks of BLOCK counters, one in ten blocks, starting at random places.
				Random random = new Random(42);
				int blocks = size / 10 / BLOCK;
				int stride = size / Math.max(1, blocks);
				for (int b = 0; b < blocks; b++) {
					int start = b * stride + random.nextInt(Math.max(1, stride - BLOCK));
					for (int i = start; i < Math.min(size, start + BLOCK); i++) {
						chosen.add(counters.get(i));
					}
				}
			}
			case "10-scattered" -> {
				for (int i = 0; i < size; i += 10) {
					chosen.add(counters.get(i));
				}
			}
			default -> {
				int percent = Integer.parseInt(change);
				int every = 100 / percent;
				for (int i = 0; i < size; i += every) {
					chosen.add(counters.get(i));
				}
			}
		}
		return chosen;
	}

	/**
	 * Change the chosen counters, then scrape once through the starter's whole path,
	 * writing the body as sent to a sink and releasing it.
	 * @param sent what the iteration's scrapes sent
	 * @param reused what the iteration's scrapes reused
	 * @return the response
	 * @throws IOException never: the sink does not fail
	 */
	@Benchmark
	public Object scrape(Sent sent, Reused reused) throws IOException {
		for (Counter counter : this.changing) {
			counter.increment();
		}
		LeanscrapeStarter starter = ScrapeState.nonNull(this.starter);
		// Seven counters read before the scrape and after (an AtomicLong and two
		// LongAdders per encoder, no allocation): nanoseconds in a scrape of
		// milliseconds.
		// Read around the timed scrape alone, the untimed scrapes of @3 codings left out.
		reused.before(starter.renderer(), this.encoders);
		long before = this.sink.count();
		@Nullable List<String> acceptEncoding = this.acceptEncodings.get(this.turn);
		this.turn = (this.turn + 1) % this.acceptEncodings.size();
		Object response = ScrapeBenchmark.scrapeWithStarter(starter.endpoint(), starter.responder(), this.outputFormat,
				acceptEncoding, this.sink);
		sent.bytesSent += this.sink.count() - before;
		sent.scrapes++;
		reused.after(starter.renderer(), this.encoders);
		return response;
	}

	/**
	 * Change the chosen counters, then scrape once through Spring Boot's endpoint, which
	 * sends the body uncompressed.
	 * @param sent what the iteration's scrapes sent
	 * @return the response
	 */
	@Benchmark
	public Object boot(Sent sent) {
		for (Counter counter : this.changing) {
			counter.increment();
		}
		PrometheusScrapeEndpoint endpoint = ScrapeState.nonNull(this.bootEndpoint);
		WebEndpointResponse<byte[]> response = endpoint.scrape(this.outputFormat, null);
		byte[] body = response.getBody();
		this.sink.write(body, 0, body.length);
		sent.bytesSent += body.length;
		sent.scrapes++;
		return response;
	}

	/**
	 * What the scrapes of one iteration sent, reported beside the time.
	 */
	@State(Scope.Thread)
	@AuxCounters(AuxCounters.Type.EVENTS)
	public static class Sent {

		/**
		 * The bytes sent in this iteration.
		 */
		public long bytesSent;

		/**
		 * The scrapes made in this iteration.
		 */
		public long scrapes;

		/**
		 * Start each iteration from zero.
		 */
		@Setup(Level.Iteration)
		public void reset() {
			this.bytesSent = 0;
			this.scrapes = 0;
		}

	}

	/**
	 * What the scrapes of one iteration reused, reported beside the time: like
	 * {@link Sent}'s, JMH sums these over the iterations and forks, so that each divided
	 * by {@code scrapes} is per scrape. Each is the change of the starter's own counter
	 * over the timed scrapes. With reuse off all three are 0 but
	 * {@code segmentsCompressed}.
	 */
	@State(Scope.Thread)
	@AuxCounters(AuxCounters.Type.EVENTS)
	public static class Reused {

		/**
		 * The blocks of series copied from the last body of their kind
		 * ({@link DirectRenderer#copiedBlocks()}).
		 */
		public long blocksCopied;

		/**
		 * The compressed segments sent as they were for an earlier body, summed over the
		 * codings ({@link BodyEncoder#segmentsReused()}).
		 */
		public long segmentsReused;

		/**
		 * The segments compressed, summed over the codings (a body compressed whole is
		 * one; {@link BodyEncoder#segmentsCompressed()}).
		 */
		public long segmentsCompressed;

		private long blocksBefore;

		private long reusedBefore;

		private long compressedBefore;

		/**
		 * Start each iteration from zero.
		 */
		@Setup(Level.Iteration)
		public void reset() {
			this.blocksCopied = 0;
			this.segmentsReused = 0;
			this.segmentsCompressed = 0;
		}

		void before(@Nullable DirectRenderer renderer, BodyEncoder[] encoders) {
			this.blocksBefore = (renderer != null) ? renderer.copiedBlocks() : 0;
			this.reusedBefore = 0;
			this.compressedBefore = 0;
			for (int i = 0; i < encoders.length; i++) {
				this.reusedBefore += encoders[i].segmentsReused();
				this.compressedBefore += encoders[i].segmentsCompressed();
			}
		}

		void after(@Nullable DirectRenderer renderer, BodyEncoder[] encoders) {
			this.blocksCopied += ((renderer != null) ? renderer.copiedBlocks() : 0) - this.blocksBefore;
			for (int i = 0; i < encoders.length; i++) {
				this.segmentsReused += encoders[i].segmentsReused();
				this.segmentsCompressed += encoders[i].segmentsCompressed();
			}
			this.segmentsReused -= this.reusedBefore;
			this.segmentsCompressed -= this.compressedBefore;
		}

	}

}
