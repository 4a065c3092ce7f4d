package io.github.leanscrape.support;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import jdk.jfr.consumer.RecordingStream;
import org.jspecify.annotations.Nullable;

/**
 * Virtual threads pinned to their carrier by the starter's code, as Java Flight Recorder
 * sees them ({@code jdk.VirtualThreadPinned}, recorded over a threshold, 20 ms in its
 * default settings): a pinned virtual thread keeps its carrier from every other one, so
 * that a few of them stall the server. A pinning counts as the starter's when the first
 * frame below the JDK's own is the starter's: the starter holds the monitor, or called
 * what cannot unmount. A pinning while a class loads is the JDK's: a virtual thread
 * cannot unmount while it loads a class (nor while it waits for another thread loading
 * the same one), so each class may pin the threads that first use it together, once,
 * wherever the class is used from.
 */
public final class PinnedVirtualThreads implements AutoCloseable {

	private static final String EVENT = "jdk.VirtualThreadPinned";

	private static final String STARTER = "io.github.leanscrape.";

	private static final int FRAMES_SHOWN = 8;

	private static final Duration FLUSH_WAIT = Duration.ofMillis(2500);

	private final RecordingStream stream = new RecordingStream();

	private final List<String> pinned = new CopyOnWriteArrayList<>();

	/**
	 * Record, in this JVM, from now until closed.
	 * @param threshold the shortest pinning recorded
	 */
	public PinnedVirtualThreads(Duration threshold) {
		this.stream.enable(EVENT).withThreshold(threshold).withStackTrace();
		this.stream.onEvent(EVENT, (event) -> {
			String description = starters(event);
			if (description != null) {
				this.pinned.add(description);
			}
		});
		this.stream.startAsync();
	}

	/**
	 * Return the starter's pinnings seen so far, after waiting for the recorder to hand
	 * over what it holds (it flushes about once a second).
	 * @return each with its duration, reason and first frames
	 */
	public List<String> pinned() {
		try {
			Thread.sleep(FLUSH_WAIT.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return List.copyOf(this.pinned);
	}

	/**
	 * Return the starter's pinnings in a recording file.
	 * @param recording the file
	 * @return each with its duration, reason and first frames
	 * @throws IOException if the file cannot be read
	 */
	public static List<String> inRecording(Path recording) throws IOException {
		List<String> pinned = new ArrayList<>();
		for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
			if (event.getEventType().getName().equals(EVENT)) {
				String description = starters(event);
				if (description != null) {
					pinned.add(description);
				}
			}
		}
		return pinned;
	}

	private static @Nullable String starters(RecordedEvent event) {
		if (event.getStackTrace() == null) {
			return null;
		}
		List<RecordedFrame> frames = event.getStackTrace().getFrames();
		for (RecordedFrame frame : frames) {
			String type = frame.getMethod().getType().getName();
			if (isClassLoading(type, frame.getMethod().getName())) {
				return null;
			}
			if (type.startsWith("java.") || type.startsWith("jdk.") || type.startsWith("sun.")) {
				continue;
			}
			if (!type.startsWith(STARTER)) {
				return null;
			}
			StringBuilder description = new StringBuilder().append(event.getDuration());
			if (event.hasField("pinnedReason")) {
				description.append(" (").append(event.getString("pinnedReason")).append(')');
			}
			for (int i = 0; i < Math.min(FRAMES_SHOWN, frames.size()); i++) {
				RecordedFrame shown = frames.get(i);
				description.append("\n  at ")
					.append(shown.getMethod().getType().getName())
					.append('.')
					.append(shown.getMethod().getName());
			}
			return description.toString();
		}
		return null;
	}

	private static boolean isClassLoading(String type, String method) {
		return type.startsWith("jdk.internal.loader.")
				|| (type.equals("java.lang.ClassLoader") && method.equals("loadClass"));
	}

	@Override
	public void close() {
		this.stream.close();
	}

}
