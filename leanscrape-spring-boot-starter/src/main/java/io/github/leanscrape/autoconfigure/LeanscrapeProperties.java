package io.github.leanscrape.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties of the leanscrape starter.
 *
 * @author leanscrape
 */
@ConfigurationProperties("leanscrape")
public class LeanscrapeProperties {

	/**
	 * Whether the starter serves the 'prometheus' endpoint. When false, Spring Boot's own
	 * endpoint serves it, unchanged.
	 */
	private boolean enabled = true;

	/**
	 * Most scrape renderings that may run at once. Scrapes of the same format and name
	 * filter that overlap share one rendering and do not count twice.
	 */
	private int maxConcurrentRenders = 2;

	/**
	 * How long a scrape may wait for a rendering slot or for a shared rendering when the
	 * request has no X-Prometheus-Scrape-Timeout-Seconds header, or one that is not a
	 * positive number. A scrape that misses its deadline is answered 503.
	 */
	private Duration scrapeTimeout = Duration.ofSeconds(10);

	/**
	 * Longest scrape timeout that an X-Prometheus-Scrape-Timeout-Seconds header may ask
	 * for.
	 */
	private Duration maxScrapeTimeout = Duration.ofMinutes(2);

	private final Direct direct = new Direct();

	private final Cache cache = new Cache();

	private final Metrics metrics = new Metrics();

	private final Cardinality cardinality = new Cardinality();

	private final Buffer buffer = new Buffer();

	private final Compression compression = new Compression();

	private final Recording recording = new Recording();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getMaxConcurrentRenders() {
		return this.maxConcurrentRenders;
	}

	public void setMaxConcurrentRenders(int maxConcurrentRenders) {
		this.maxConcurrentRenders = maxConcurrentRenders;
	}

	public Duration getScrapeTimeout() {
		return this.scrapeTimeout;
	}

	public void setScrapeTimeout(Duration scrapeTimeout) {
		this.scrapeTimeout = scrapeTimeout;
	}

	public Duration getMaxScrapeTimeout() {
		return this.maxScrapeTimeout;
	}

	public void setMaxScrapeTimeout(Duration maxScrapeTimeout) {
		this.maxScrapeTimeout = maxScrapeTimeout;
	}

	public Cache getCache() {
		return this.cache;
	}

	public Metrics getMetrics() {
		return this.metrics;
	}

	public Cardinality getCardinality() {
		return this.cardinality;
	}

	public Direct getDirect() {
		return this.direct;
	}

	public Buffer getBuffer() {
		return this.buffer;
	}

	public Compression getCompression() {
		return this.compression;
	}

	public Recording getRecording() {
		return this.recording;
	}

	/**
	 * Scrape cache settings.
	 */
	public static class Cache {

		/**
		 * How long a rendered body is served again to scrapes of the same format and name
		 * filter. Cached bodies are dropped when a rendering would otherwise wait for the
		 * memory they hold (see buffer.max-held-bodies). Zero turns the cache off.
		 */
		private Duration timeToLive = Duration.ZERO;

		public Duration getTimeToLive() {
			return this.timeToLive;
		}

		public void setTimeToLive(Duration timeToLive) {
			this.timeToLive = timeToLive;
		}

	}

	/**
	 * Cardinality report settings.
	 */
	public static class Cardinality {

		/**
		 * Number of series in one scrape above which a warning is logged, once, pointing
		 * at the 'leanscrape' actuator endpoint.
		 */
		private long warnThreshold = 500_000;

		public long getWarnThreshold() {
			return this.warnThreshold;
		}

		public void setWarnThreshold(long warnThreshold) {
			this.warnThreshold = warnThreshold;
		}

	}

	/**
	 * Settings of the starter's own metrics.
	 */
	public static class Metrics {

		/**
		 * Whether the starter records its own work (leanscrape.* meters,
		 * leanscrape.recording.requests included) in the application's meter registry.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * Direct exposition settings.
	 */
	public static class Direct {

		/**
		 * Whether text 0.0.4 and OpenMetrics are written straight from the meters. When
		 * false, every scrape goes through PrometheusRegistry.scrape() and client_java's
		 * writers, as Spring Boot's endpoint does.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * Output buffer settings.
	 */
	public static class Buffer {

		/**
		 * Bytes added to the size of the previous scrape of the same kind (format, name
		 * filter, encoding) when sizing the next one.
		 */
		private DataSize headroom = DataSize.ofKilobytes(16);

		/**
		 * Most memory kept in free output chunks between scrapes. What is kept also
		 * follows the size of recent scrapes, so it shrinks when the output shrinks.
		 */
		private DataSize maxRetained = DataSize.ofMegabytes(64);

		/**
		 * Most memory that scrape bodies may hold at once, as a multiple of the largest
		 * recent body. A rendering starts only when the bodies still being sent, cached
		 * or kept to reuse their segments and the renderings under way, with what it
		 * expects to need (its compressed copy included), stay within it; otherwise the
		 * bodies kept for other kinds are dropped, then the gzip forms kept to stand in
		 * for them (those kinds rest), then the cached bodies and its own kind's, and it
		 * waits for the others to be released, and its scrapes are answered 503 when
		 * their timeout passes first. A rendering always starts when no body is held.
		 * Zero turns the limit off.
		 */
		private double maxHeldBodies = 2.5;

		public DataSize getHeadroom() {
			return this.headroom;
		}

		public void setHeadroom(DataSize headroom) {
			this.headroom = headroom;
		}

		public DataSize getMaxRetained() {
			return this.maxRetained;
		}

		public void setMaxRetained(DataSize maxRetained) {
			this.maxRetained = maxRetained;
		}

		public double getMaxHeldBodies() {
			return this.maxHeldBodies;
		}

		public void setMaxHeldBodies(double maxHeldBodies) {
			this.maxHeldBodies = maxHeldBodies;
		}

	}

	/**
	 * Response compression settings.
	 */
	public static class Compression {

		/**
		 * Whether to compress the body when the request accepts gzip (or zstd, when
		 * zstd-jni is on the class path).
		 */
		private boolean enabled = true;

		/**
		 * Deflate level of the gzip body, from 1 (fastest) to 9 (smallest).
		 */
		private int level = 1;

		/**
		 * Whether to keep the last body of each kind (format, name filter), whatever
		 * coding it was sent in, and its last compressed form in each coding, so that a
		 * block of series whose values did not change is copied rather than formatted
		 * again (uncompressed scrapes too) and a segment whose bytes did not change is
		 * sent compressed as it was. A coding compresses segment by segment where enough
		 * can be copied (gzip a tenth of the body; zstd, where frames per segment are
		 * allowed, three tenths), else whole; a kind whose body was dropped for room has
		 * its gzip forms compressed by segment when there is nothing to compare with, so
		 * that they can stand in for it. What is kept counts within
		 * buffer.max-held-bodies; a rendering reads the kept body of its kind as it
		 * writes and gives it back behind it, so that at the default one kind scraped in
		 * any mix of codings keeps its body, and so do both of two large kinds in turn
		 * (OpenMetrics and text). Where a body does not fit (more kinds, or bodies of a
		 * few chunks, which the limit counts in whole chunks), it is dropped for room and
		 * its kind keeps its gzip form to compare the next body with and, where the other
		 * text format's kind copied a quarter of its own, copies its unchanged blocks
		 * from that body; sent only uncompressed or in zstd, that kind rests, compressed
		 * whole and trying again now and then. At most four kinds are kept: scraped in
		 * turn, more kinds than that reuse nothing.
		 */
		private boolean reuseSegments = true;

		/**
		 * Zstandard compression, offered when zstd-jni is on the class path.
		 */
		private final Zstd zstd = new Zstd();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getLevel() {
			return this.level;
		}

		public void setLevel(int level) {
			this.level = level;
		}

		public boolean isReuseSegments() {
			return this.reuseSegments;
		}

		public void setReuseSegments(boolean reuseSegments) {
			this.reuseSegments = reuseSegments;
		}

		public Zstd getZstd() {
			return this.zstd;
		}

		/**
		 * Zstandard compression settings.
		 */
		public static class Zstd {

			/**
			 * Whether to send a zstd body when the request accepts zstd (named in
			 * Accept-Encoding, with a q-value no lower than gzip's) and
			 * com.github.luben:zstd-jni is on the class path.
			 */
			private boolean enabled = true;

			/**
			 * Zstandard level of the zstd body, from 1 (fastest) to 19 (smallest).
			 */
			private int level = 1;

			/**
			 * Whether a zstd body may be sent as a frame per segment, so that segments
			 * that did not change are sent compressed as they were. RFC 8878 allows
			 * several frames and the zstd tool, curl, zstd-jni and Go's decoder
			 * (Prometheus) read them all, but python-zstandard's one-shot decompress
			 * returns the first frame only, without an error. Off: every zstd body is one
			 * frame.
			 */
			private boolean framePerSegment;

			public boolean isFramePerSegment() {
				return this.framePerSegment;
			}

			public void setFramePerSegment(boolean framePerSegment) {
				this.framePerSegment = framePerSegment;
			}

			public boolean isEnabled() {
				return this.enabled;
			}

			public void setEnabled(boolean enabled) {
				this.enabled = enabled;
			}

			public int getLevel() {
				return this.level;
			}

			public void setLevel(int level) {
				this.level = level;
			}

		}

	}

	/**
	 * Settings of the meter observation handler that records each observation into meters
	 * resolved once per distinct observation name and low-cardinality key values.
	 */
	public static class Recording {

		/**
		 * Whether the starter's meter observation handler records observations in place
		 * of Micrometer's default one, and, in Spring MVC and WebFlux applications
		 * without a request observation convention of their own, the starter's convention
		 * derives the key values of http.server.requests once per combination in place of
		 * Spring's. When false, Spring Boot's default handler and convention record them,
		 * unchanged.
		 */
		private boolean enabled = true;

		/**
		 * Most meters held by the handler's cache: one entry per distinct observation
		 * name and low-cardinality key values, for each timer (with its error value) and
		 * each long task timer. Once full, further combinations are recorded through the
		 * meter registry on every observation, as Micrometer's default handler does. Also
		 * bounds the request observation convention's cache of key values (one entry per
		 * combination of path pattern, method, status and error class).
		 */
		private int maxCachedMeters = 2000;

		/**
		 * Whether Spring MVC and Spring WebFlux requests are recorded into
		 * http.server.requests without Micrometer's observation, when nothing but the
		 * starter's handler would see the observation (no tracing or other observation
		 * handler, filter or predicate, no custom convention): from a servlet filter in
		 * Spring MVC, from the web handler that Spring WebFlux's HTTP handler adapter
		 * calls in Spring WebFlux. The same series; the request still has a current
		 * observation, the starter's, and a context. Takes effect only while recording is
		 * enabled.
		 */
		private boolean directServerRequests = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getMaxCachedMeters() {
			return this.maxCachedMeters;
		}

		public void setMaxCachedMeters(int maxCachedMeters) {
			this.maxCachedMeters = maxCachedMeters;
		}

		public boolean isDirectServerRequests() {
			return this.directServerRequests;
		}

		public void setDirectServerRequests(boolean directServerRequests) {
			this.directServerRequests = directServerRequests;
		}

	}

}
