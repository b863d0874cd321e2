package dev.panamax.examples.vulkan;

import dev.panamax.examples.vulkan.binding.VkApplicationInfo;
import dev.panamax.examples.vulkan.binding.VkExtensionProperties;
import dev.panamax.examples.vulkan.binding.VkInstance;
import dev.panamax.examples.vulkan.binding.VkInstanceCreateInfo;
import dev.panamax.examples.vulkan.binding.VkPhysicalDevice;
import dev.panamax.examples.vulkan.binding.Vulkan;
import dev.panamax.examples.vulkan.binding.VulkanApi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A Vulkan instance that this object owns: {@link #close()} calls {@code vkDestroyInstance(instance,
 * NULL)} exactly once (a second close does nothing). The declarations file keeps {@code VkInstance}
 * borrowed because a handle's declared release takes the handle alone, and {@code vkDestroyInstance}
 * also takes the allocator; ownership lives here instead.
 *
 * <pre>{@code
 * try (Instance vk = Instance.create("demo", List.of())) {
 *     for (VkPhysicalDevice device : vk.physicalDevices()) {
 *         System.out.println(Instance.deviceName(device));   // "llvmpipe (LLVM 15.0.6, 256 bits)"
 *     }
 * }   // a failing VkResult throws VulkanException: "VK_ERROR_EXTENSION_NOT_PRESENT (-7) in vkCreateInstance"
 * }</pre>
 */
public final class Instance implements AutoCloseable {
    private final AtomicReference<VkInstance> handle;

    private Instance(VkInstance handle) {
        this.handle = new AtomicReference<>(handle);
    }

    /** The instance-level API version the loader supports, as {@code VK_MAKE_API_VERSION} packs it. */
    public static int version() {
        return VulkanApi.vkEnumerateInstanceVersion();
    }

    /** The names of the instance extensions the loader and its drivers offer (two calls: count, then fill). */
    public static List<String> extensions() {
        int[] count = new int[1];
        VulkanApi.vkEnumerateInstanceExtensionProperties(null, count, MemorySegment.NULL);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment properties = arena.allocate(VkExtensionProperties.LAYOUT, count[0]);
            VulkanApi.vkEnumerateInstanceExtensionProperties(null, count, properties);   // count: how many were written
            List<String> names = new ArrayList<>(count[0]);
            for (int i = 0; i < count[0]; i++) {
                VkExtensionProperties p = VkExtensionProperties.wrap(properties.asSlice(i * VkExtensionProperties.SIZE, VkExtensionProperties.SIZE));
                names.add(p.extensionName().getString(0));
            }
            return List.copyOf(names);
        }
    }

    /**
     * Creates an instance for Vulkan 1.0 with the named extensions enabled (no layers).
     *
     * @throws dev.panamax.examples.vulkan.binding.VulkanException when {@code vkCreateInstance} fails, e.g.
     *     {@code VK_ERROR_EXTENSION_NOT_PRESENT} for an extension no driver offers
     */
    public static Instance create(String applicationName, List<String> extensions) {
        Objects.requireNonNull(applicationName, "applicationName");
        try (Arena arena = Arena.ofConfined()) {
            VkApplicationInfo app = VkApplicationInfo.allocate(arena)
                    .sType(Vulkan.VK_STRUCTURE_TYPE_APPLICATION_INFO)
                    .pApplicationName(arena.allocateFrom(applicationName))
                    .pEngineName(arena.allocateFrom("Panamax"))
                    .apiVersion(Vulkan.VK_API_VERSION_1_0);
            MemorySegment names = arena.allocate(ValueLayout.ADDRESS, Math.max(1, extensions.size()));
            for (int i = 0; i < extensions.size(); i++) {
                names.setAtIndex(ValueLayout.ADDRESS, i, arena.allocateFrom(extensions.get(i)));
            }
            VkInstanceCreateInfo info = VkInstanceCreateInfo.allocate(arena)
                    .sType(Vulkan.VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO)
                    .pApplicationInfo(app.segment())
                    .enabledExtensionCount(extensions.size())
                    .ppEnabledExtensionNames(extensions.isEmpty() ? MemorySegment.NULL : names);
            return new Instance(VulkanApi.vkCreateInstance(info, null));
        }
    }

    /** The physical devices of this instance (two calls: count, then fill); empty when the loader found no driver. */
    public List<VkPhysicalDevice> physicalDevices() {
        VkInstance instance = handle();
        int[] count = new int[1];
        VulkanApi.vkEnumeratePhysicalDevices(instance, count, null);
        VkPhysicalDevice[] devices = new VkPhysicalDevice[count[0]];
        VulkanApi.vkEnumeratePhysicalDevices(instance, count, devices);
        return List.of(Arrays.copyOf(devices, count[0]));
    }

    /** {@code VkPhysicalDeviceProperties.deviceName} of {@code device}. */
    public static String deviceName(VkPhysicalDevice device) {
        return VulkanApi.vkGetPhysicalDeviceProperties(device).deviceName().getString(0);
    }

    /** The instance; {@link IllegalStateException} once closed. */
    public VkInstance handle() {
        VkInstance h = handle.get();
        if (h == null) {
            throw new IllegalStateException("the Vulkan instance is closed");
        }
        return h;
    }

    /** Destroys the instance with {@code vkDestroyInstance(instance, NULL)} the first time; later calls do nothing. */
    @Override
    public void close() {
        VkInstance h = handle.getAndSet(null);
        if (h != null) {
            VulkanApi.vkDestroyInstance(h, null);
        }
    }

    /** Whether {@link #close()} has run. */
    public boolean isClosed() {
        return handle.get() == null;
    }
}
