package dev.panamax.opencl;

import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClImageDesc;
import dev.panamax.opencl.binding.ClImageFormat;
import dev.panamax.opencl.binding.ClMem;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Images on PoCL through the typed layer: the supported formats as an array of format structs, a 2D
 * image described by the image-description struct, written whole, read back in part, filled, copied
 * into a buffer and queried: the two structs' layouts against the driver's; a 3D image copied in part
 * into another and read through a map with the pitches the driver chose; a buffer copied into part
 * of an image made with a property list.
 */
class ImagesTest extends PoclTestBase {
    private static final int WIDTH = 8;
    private static final int HEIGHT = 4;
    private static final int CHANNELS = 4;

    @BeforeAll
    static void imagesSupported() {
        long support = Info.scalar(ValueLayout.JAVA_INT,
                (size, value, ret) -> CLApi.clGetDeviceInfo(device, CL.CL_DEVICE_IMAGE_SUPPORT, size, value, ret));
        Assumptions.assumeTrue(support != 0, "the device has no image support");
    }

    @Test
    void rgbaFloatIsAmongTheSupportedFormats() {
        try (Arena arena = Arena.ofConfined()) {
            int[] count = new int[1];
            CLApi.clGetSupportedImageFormats(context, CL.CL_MEM_READ_WRITE, CL.CL_MEM_OBJECT_IMAGE2D, 0, null, count);
            assertTrue(count[0] > 0);
            MemorySegment formats = arena.allocate(ClImageFormat.LAYOUT, count[0]);
            CLApi.clGetSupportedImageFormats(context, CL.CL_MEM_READ_WRITE, CL.CL_MEM_OBJECT_IMAGE2D, count[0], formats, null);
            boolean found = false;
            for (int i = 0; i < count[0]; i++) {
                ClImageFormat f = ClImageFormat.wrap(formats.asSlice(i * ClImageFormat.SIZE, ClImageFormat.SIZE));
                found |= f.image_channel_order() == CL.CL_RGBA && f.image_channel_data_type() == CL.CL_FLOAT;
            }
            assertTrue(found, "CL_RGBA / CL_FLOAT among " + count[0] + " formats");
        }
    }

    @Test
    void aTwoDimensionalImageIsWrittenReadInPartFilledAndCopiedToABuffer() {
        try (Arena arena = Arena.ofConfined()) {
            ClImageFormat format = ClImageFormat.allocate(arena).image_channel_order(CL.CL_RGBA).image_channel_data_type(CL.CL_FLOAT);
            ClImageDesc desc = ClImageDesc.allocate(arena).image_type(CL.CL_MEM_OBJECT_IMAGE2D).image_width(WIDTH).image_height(HEIGHT);
            long pixelBytes = CHANNELS * (long) Float.BYTES;
            try (ClMem image = CLApi.clCreateImage(context, CL.CL_MEM_READ_WRITE, format, desc, null);
                 ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, WIDTH * HEIGHT * pixelBytes, null)) {
                assertEquals(WIDTH, imageInfo(image, CL.CL_IMAGE_WIDTH));
                assertEquals(HEIGHT, imageInfo(image, CL.CL_IMAGE_HEIGHT));
                assertEquals(pixelBytes, imageInfo(image, CL.CL_IMAGE_ELEMENT_SIZE));

                MemorySegment pixels = arena.allocate(WIDTH * HEIGHT * pixelBytes);
                for (int i = 0; i < WIDTH * HEIGHT * CHANNELS; i++) pixels.setAtIndex(ValueLayout.JAVA_FLOAT, i, i);
                CLApi.clEnqueueWriteImage(queue, image, true, new long[] {0, 0, 0}, new long[] {WIDTH, HEIGHT, 1}, 0, 0, pixels, null, null);

                // 3 x 2 pixels from column 2, row 1
                MemorySegment part = arena.allocate(3 * 2 * pixelBytes);
                CLApi.clEnqueueReadImage(queue, image, true, new long[] {2, 1, 0}, new long[] {3, 2, 1}, 0, 0, part, null, null);
                for (int row = 0; row < 2; row++) {
                    for (int col = 0; col < 3; col++) {
                        for (int ch = 0; ch < CHANNELS; ch++) {
                            float expected = (((row + 1) * WIDTH) + (col + 2)) * CHANNELS + ch;
                            assertEquals(expected, part.getAtIndex(ValueLayout.JAVA_FLOAT, (row * 3 + col) * CHANNELS + ch));
                        }
                    }
                }

                MemorySegment color = arena.allocateFrom(ValueLayout.JAVA_FLOAT, 0.25f, 0.5f, 0.75f, 1f);
                CLApi.clEnqueueFillImage(queue, image, color, new long[] {0, 0, 0}, new long[] {WIDTH, HEIGHT, 1}, null, null);
                CLApi.clEnqueueCopyImageToBuffer(queue, image, buffer, new long[] {0, 0, 0}, new long[] {WIDTH, HEIGHT, 1}, 0, null, null);
                MemorySegment back = arena.allocate(WIDTH * HEIGHT * pixelBytes);
                CLApi.clEnqueueReadBuffer(queue, buffer, true, 0, back, null, null);
                for (int i = 0; i < WIDTH * HEIGHT; i++) {
                    for (int ch = 0; ch < CHANNELS; ch++) {
                        assertEquals(color.getAtIndex(ValueLayout.JAVA_FLOAT, ch), back.getAtIndex(ValueLayout.JAVA_FLOAT, i * CHANNELS + ch));
                    }
                }
            }
        }
    }

    @Test
    void aThreeDimensionalImageIsCopiedInPartToAnotherAndReadThroughAMap() {
        final int w = 4, h = 3, d = 2;
        long pixelBytes = CHANNELS * (long) Float.BYTES;
        try (Arena arena = Arena.ofConfined()) {
            ClImageFormat format = ClImageFormat.allocate(arena).image_channel_order(CL.CL_RGBA).image_channel_data_type(CL.CL_FLOAT);
            ClImageDesc desc = ClImageDesc.allocate(arena).image_type(CL.CL_MEM_OBJECT_IMAGE3D)
                    .image_width(w).image_height(h).image_depth(d);
            try (ClMem source = CLApi.clCreateImage(context, CL.CL_MEM_READ_WRITE, format, desc, null);
                 ClMem target = CLApi.clCreateImage(context, CL.CL_MEM_READ_WRITE, format, desc, null)) {
                assertEquals(d, imageInfo(source, CL.CL_IMAGE_DEPTH));
                MemorySegment pixels = arena.allocate(w * h * d * pixelBytes);
                for (int i = 0; i < w * h * d * CHANNELS; i++) pixels.setAtIndex(ValueLayout.JAVA_FLOAT, i, i);
                CLApi.clEnqueueWriteImage(queue, source, true, new long[] {0, 0, 0}, new long[] {w, h, d}, 0, 0, pixels, null, null);
                CLApi.clEnqueueFillImage(queue, target, arena.allocateFrom(ValueLayout.JAVA_FLOAT, -1f, -1f, -1f, -1f),
                        new long[] {0, 0, 0}, new long[] {w, h, d}, null, null);
                // 2 x 2 x 1 pixels from (1, 1, 1) of the source to (2, 0, 0) of the target
                CLApi.clEnqueueCopyImage(queue, source, target, new long[] {1, 1, 1}, new long[] {2, 0, 0}, new long[] {2, 2, 1}, null, null);

                long[] rowPitch = new long[1];
                long[] slicePitch = new long[1];
                MemorySegment mapped = CLApi.clEnqueueMapImage(queue, target, true, CL.CL_MAP_READ, new long[] {0, 0, 0},
                        new long[] {w, h, d}, rowPitch, slicePitch, null, null);
                try {
                    assertTrue(rowPitch[0] >= w * pixelBytes, "row pitch " + rowPitch[0]);
                    assertTrue(slicePitch[0] >= h * rowPitch[0], "slice pitch " + slicePitch[0]);
                    MemorySegment view = mapped.reinterpret(d * slicePitch[0]);
                    for (int z = 0; z < d; z++) {
                        for (int y = 0; y < h; y++) {
                            for (int x = 0; x < w; x++) {
                                boolean copied = z == 0 && y < 2 && x >= 2;
                                // the copied pixel came from (x - 2 + 1, y + 1, z + 1) of the source
                                float expected = copied ? (((1 * h + (y + 1)) * w) + (x - 1)) * CHANNELS : -1f;
                                long at = z * slicePitch[0] + y * rowPitch[0] + x * pixelBytes;
                                assertEquals(expected, view.get(ValueLayout.JAVA_FLOAT, at), "pixel " + x + "," + y + "," + z);
                            }
                        }
                    }
                } finally {
                    CLApi.clEnqueueUnmapMemObject(queue, target, mapped, null, null);
                    CLApi.clFinish(queue);
                }
            }
        }
    }

    @Test
    void aBufferIsCopiedIntoPartOfAnImageMadeWithAPropertyList() {
        long pixelBytes = CHANNELS * (long) Float.BYTES;
        try (Arena arena = Arena.ofConfined()) {
            ClImageFormat format = ClImageFormat.allocate(arena).image_channel_order(CL.CL_RGBA).image_channel_data_type(CL.CL_FLOAT);
            ClImageDesc desc = ClImageDesc.allocate(arena).image_type(CL.CL_MEM_OBJECT_IMAGE2D).image_width(WIDTH).image_height(HEIGHT);
            try (ClMem image = CLApi.clCreateImageWithProperties(context, new long[0], CL.CL_MEM_READ_WRITE, format, desc, null);
                 ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, 2 * 2 * pixelBytes, null)) {
                assertEquals(WIDTH, imageInfo(image, CL.CL_IMAGE_WIDTH));
                CLApi.clEnqueueFillImage(queue, image, arena.allocateFrom(ValueLayout.JAVA_FLOAT, 0f, 0f, 0f, 0f),
                        new long[] {0, 0, 0}, new long[] {WIDTH, HEIGHT, 1}, null, null);
                MemorySegment block = arena.allocate(2 * 2 * pixelBytes);
                for (int i = 0; i < 2 * 2 * CHANNELS; i++) block.setAtIndex(ValueLayout.JAVA_FLOAT, i, i + 1);
                CLApi.clEnqueueWriteBuffer(queue, buffer, true, 0, block, null, null);
                // the buffer's 2 x 2 pixels to column 5, row 2
                CLApi.clEnqueueCopyBufferToImage(queue, buffer, image, 0, new long[] {5, 2, 0}, new long[] {2, 2, 1}, null, null);
                MemorySegment all = arena.allocate(WIDTH * HEIGHT * pixelBytes);
                CLApi.clEnqueueReadImage(queue, image, true, new long[] {0, 0, 0}, new long[] {WIDTH, HEIGHT, 1}, 0, 0, all, null, null);
                for (int y = 0; y < HEIGHT; y++) {
                    for (int x = 0; x < WIDTH; x++) {
                        boolean copied = x >= 5 && x < 7 && y >= 2 && y < 4;
                        for (int ch = 0; ch < CHANNELS; ch++) {
                            float expected = copied ? ((y - 2) * 2 + (x - 5)) * CHANNELS + ch + 1 : 0f;
                            assertEquals(expected, all.getAtIndex(ValueLayout.JAVA_FLOAT, (y * WIDTH + x) * CHANNELS + ch),
                                    "pixel " + x + "," + y + " channel " + ch);
                        }
                    }
                }
            }
        }
    }

    private static long imageInfo(ClMem image, int param) {
        return Info.scalar(ValueLayout.JAVA_LONG, (size, value, ret) -> CLApi.clGetImageInfo(image, param, size, value, ret));
    }
}
