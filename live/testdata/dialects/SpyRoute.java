// Asks spymemcached's own locators which server each key goes to,
// without connecting: the nodes are stand-ins (java.lang.reflect.Proxy)
// that answer getSocketAddress() with the address AddrUtil parsed.
// Requests on stdin, one after another:
//   MODE N M            MODE: ketama-spy, ketama-lib or arraymod
//   host:port host:port ...   (the N servers, as AddrUtil.getAddresses takes them)
//   M lines, one key each
// Reply: one line {"nodes":[index of each key's server in the list]}.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

import net.spy.memcached.AddrUtil;
import net.spy.memcached.ArrayModNodeLocator;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.KetamaNodeKeyFormatter;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.NodeLocator;

public class SpyRoute {
    static MemcachedNode node(InetSocketAddress addr) {
        return (MemcachedNode) Proxy.newProxyInstance(MemcachedNode.class.getClassLoader(),
            new Class<?>[] {MemcachedNode.class}, (proxy, m, args) -> {
                switch (m.getName()) {
                case "getSocketAddress": return addr;
                case "hashCode": return System.identityHashCode(proxy);
                case "equals": return proxy == args[0];
                case "toString": return String.valueOf(addr);
                default: throw new UnsupportedOperationException(m.getName());
                }
            });
    }

    public static void main(String[] argv) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String head;
        while ((head = in.readLine()) != null) {
            String[] h = head.split(" ");
            int m = Integer.parseInt(h[2]);
            List<InetSocketAddress> addrs = AddrUtil.getAddresses(in.readLine());
            List<MemcachedNode> nodes = new ArrayList<>();
            HashMap<MemcachedNode, Integer> index = new HashMap<>();
            for (InetSocketAddress a : addrs) {
                MemcachedNode n = node(a);
                index.put(n, nodes.size());
                nodes.add(n);
            }
            NodeLocator loc;
            switch (h[0]) {
            case "ketama-spy":
                loc = new KetamaNodeLocator(nodes, DefaultHashAlgorithm.KETAMA_HASH);
                break;
            case "ketama-lib":
                loc = new KetamaNodeLocator(nodes, DefaultHashAlgorithm.KETAMA_HASH,
                    KetamaNodeKeyFormatter.Format.LIBMEMCACHED, new HashMap<InetSocketAddress, Integer>());
                break;
            default:
                loc = new ArrayModNodeLocator(nodes, DefaultHashAlgorithm.NATIVE_HASH);
            }
            StringBuilder out = new StringBuilder("{\"nodes\":[");
            for (int i = 0; i < m; i++) {
                if (i > 0) out.append(',');
                out.append(index.get(loc.getPrimary(in.readLine())));
            }
            System.out.println(out.append("]}"));
            System.out.flush();
        }
    }
}
