"""torch 2.13.0+cpu's answers to ``torch_layout_cases``, stored by
``python tests/frontend/torch_layout_cases.py --store``."""

CLOSE = {'one_off': ('AssertionError',
             'Tensor-likes are not close!\n'
             '\n'
             'Mismatched elements: 1 / 3 (33.3%)\n'
             'Greatest absolute difference: 2.0 at index (1,) (up to 1e-05 allowed)\n'
             'Greatest relative difference: 0.5 at index (1,) (up to 1.3e-06 allowed)'),
 'within_default': ('ok', ''),
 'just_outside': ('AssertionError',
                  'Tensor-likes are not close!\n'
                  '\n'
                  'Mismatched elements: 1 / 3 (33.3%)\n'
                  'Greatest absolute difference: 9.989738464355469e-05 at index (1,) (up to '
                  '1e-05 allowed)\n'
                  'Greatest relative difference: 4.994619666831568e-05 at index (1,) (up to '
                  '1.3e-06 allowed)'),
 'ints_exact': ('AssertionError',
                'Tensor-likes are not equal!\n'
                '\n'
                'Mismatched elements: 1 / 4 (25.0%)\n'
                'Greatest absolute difference: 1 at index (1, 1)\n'
                'Greatest relative difference: 0.20000000298023224 at index (1, 1)'),
 'zero_dim': ('AssertionError',
              'Scalars are not close!\n'
              '\n'
              'Expected 1.600000023841858 but got 1.5.\n'
              'Absolute difference: 0.10000002384185791 (up to 1e-05 allowed)\n'
              'Relative difference: 0.06250001396983841 (up to 1.3e-06 allowed)'),
 'dtype': ('AssertionError',
           "The values for attribute 'dtype' do not match: torch.float32 != torch.float64."),
 'dtype_unchecked': ('AssertionError',
                     'Tensor-likes are not close!\n'
                     '\n'
                     'Mismatched elements: 1 / 2 (50.0%)\n'
                     'Greatest absolute difference: 0.10000000000000009 at index (1,) (up to '
                     '1e-05 allowed)\n'
                     'Greatest relative difference: 0.04761904761904766 at index (1,) (up to '
                     '1.3e-06 allowed)'),
 'shape': ('AssertionError',
           "The values for attribute 'shape' do not match: torch.Size([2]) != "
           'torch.Size([3]).'),
 'nan': ('AssertionError',
         'Tensor-likes are not close!\n'
         '\n'
         'Mismatched elements: 1 / 2 (50.0%)\n'
         'Greatest absolute difference: nan at index (0,) (up to 1e-05 allowed)\n'
         'Greatest relative difference: nan at index (0,) (up to 1.3e-06 allowed)'),
 'nan_equal': ('ok', ''),
 'inf_signs': ('AssertionError',
               'Tensor-likes are not close!\n'
               '\n'
               'Mismatched elements: 1 / 2 (50.0%)\n'
               'Greatest absolute difference: inf at index (0,) (up to 1e-05 allowed)\n'
               'Greatest relative difference: nan at index (0,) (up to 1.3e-06 allowed)'),
 'relative_to_zero': ('AssertionError',
                      'Tensor-likes are not close!\n'
                      '\n'
                      'Mismatched elements: 2 / 2 (100.0%)\n'
                      'Greatest absolute difference: 1.0 at index (1,) (up to 1e-05 allowed)\n'
                      'Greatest relative difference: inf at index (1,) (up to 1.3e-06 '
                      'allowed)'),
 'rtol_only': ('ValueError',
               "Both 'rtol' and 'atol' must be either specified or omitted, but got no atol."),
 'custom_tolerance': ('ok', ''),
 'zero_tolerance': ('AssertionError',
                    'Tensor-likes are not equal!\n'
                    '\n'
                    'Mismatched elements: 1 / 2 (50.0%)\n'
                    'Greatest absolute difference: 0.5 at index (0,)\n'
                    'Greatest relative difference: 0.3333333432674408 at index (0,)'),
 'nested': ('AssertionError',
            'Tensor-likes are not close!\n'
            '\n'
            'Mismatched elements: 1 / 2 (50.0%)\n'
            'Greatest absolute difference: 1.0 at index (1,) (up to 1e-05 allowed)\n'
            'Greatest relative difference: 0.3333333432674408 at index (1,) (up to 1.3e-06 '
            'allowed)\n'
            '\n'
            "The failure occurred for item [1]['a']"),
 'keys': ('AssertionError',
          'The keys of the mappings do not match:\n'
          "Missing keys in the actual mapping: ['c']\n"
          "Additional keys in the actual mapping: ['b']"),
 'lengths': ('AssertionError', 'The length of the sequences mismatch: 2 != 3'),
 'int_vs_float': ('AssertionError',
                  "The (d)types do not match: <class 'int'> != <class 'float'>."),
 'floats': ('AssertionError',
            'Scalars are not close!\n'
            '\n'
            'Expected 1.1 but got 1.0.\n'
            'Absolute difference: 0.10000000000000009 (up to 1e-07 allowed)\n'
            'Relative difference: 0.09090909090909098 (up to 1e-07 allowed)'),
 'float_close': ('ok', ''),
 'bools': ('AssertionError', 'Booleans mismatch: True is not False'),
 'none': ('AssertionError', 'None mismatch: None is not 1'),
 'numpy': ('AssertionError',
           'Tensor-likes are not close!\n'
           '\n'
           'Mismatched elements: 1 / 2 (50.0%)\n'
           'Greatest absolute difference: 0.5 at index (1,) (up to 1e-07 allowed)\n'
           'Greatest relative difference: 0.2 at index (1,) (up to 1e-07 allowed)'),
 'numpy_scalar': ('AssertionError',
                  'Scalars are not close!\n'
                  '\n'
                  'Expected 1.5 but got 1.0.\n'
                  'Absolute difference: 0.5 (up to 1e-07 allowed)\n'
                  'Relative difference: 0.3333333333333333 (up to 1e-07 allowed)'),
 'tensor_vs_numpy': ('TypeError',
                     "No comparison pair was able to handle inputs of type <class 'Tensor'> "
                     "and <class 'numpy.ndarray'>."),
 'msg': ('AssertionError', 'custom'),
 'msg_callable': ('AssertionError',
                  'H\n'
                  'Tensor-likes are not close!\n'
                  '\n'
                  'Mismatched elements: 1 / 2 (50.0%)\n'
                  'Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)\n'
                  'Greatest relative difference: 0.20000000298023224 at index (1,) (up to '
                  '1.3e-06 allowed)\n'
                  '\n'
                  'The failure occurred for item [0]\n'
                  'F'),
 'subclass': ('ok', ''),
 'no_subclass': ('TypeError',
                 "No comparison pair was able to handle inputs of type <class 'Parameter'> "
                 "and <class 'Tensor'>."),
 'bool_tensors': ('AssertionError',
                  'Tensor-likes are not equal!\n'
                  '\n'
                  'Mismatched elements: 1 / 2 (50.0%)\n'
                  'Greatest absolute difference: 1 at index (1,)\n'
                  'Greatest relative difference: 1.0 at index (1,)'),
 'float16': ('AssertionError',
             'Tensor-likes are not close!\n'
             '\n'
             'Mismatched elements: 1 / 2 (50.0%)\n'
             'Greatest absolute difference: 0.009765625 at index (1,) (up to 1e-05 allowed)\n'
             'Greatest relative difference: 0.00485992431640625 at index (1,) (up to 0.001 '
             'allowed)'),
 'int32_vs_int64': ('AssertionError',
                    "The values for attribute 'dtype' do not match: torch.int32 != "
                    'torch.int64.'),
 'where_3d': ('AssertionError',
              'Tensor-likes are not close!\n'
              '\n'
              'Mismatched elements: 6 / 24 (25.0%)\n'
              'Greatest absolute difference: 1.0 at index (0, 0, 1) (up to 1e-05 allowed)\n'
              'Greatest relative difference: 1.0 at index (0, 0, 1) (up to 1.3e-06 allowed)'),
 'rtol_without_atol': ('ValueError',
                       "Both 'rtol' and 'atol' must be either specified or omitted, but got "
                       'no atol.'),
 'number_atol_only': ('ValueError',
                      "Both 'rtol' and 'atol' must be either specified or omitted, but got no "
                      'rtol.'),
 'tuple_vs_list': ('ok', ''),
 'strings': ('TypeError',
             "No comparison pair was able to handle inputs of type <class 'str'> and <class "
             "'str'>."),
 'tensor_vs_list': ('TypeError',
                    "No comparison pair was able to handle inputs of type <class 'Tensor'> "
                    "and <class 'list'>."),
 'nan_vs_number': ('AssertionError',
                   'Tensor-likes are not close!\n'
                   '\n'
                   'Mismatched elements: 1 / 2 (50.0%)\n'
                   'Greatest absolute difference: nan at index (1,) (up to 1e-05 allowed)\n'
                   'Greatest relative difference: nan at index (1,) (up to 1.3e-06 allowed)'),
 'int_zero_expected': ('AssertionError',
                       'Tensor-likes are not equal!\n'
                       '\n'
                       'Mismatched elements: 1 / 2 (50.0%)\n'
                       'Greatest absolute difference: 5 at index (1,)\n'
                       'Greatest relative difference: inf at index (1,)'),
 'uint8': ('AssertionError',
           'Tensor-likes are not equal!\n'
           '\n'
           'Mismatched elements: 2 / 2 (100.0%)\n'
           'Greatest absolute difference: 247 at index (0,)\n'
           'Greatest relative difference: 82.33333587646484 at index (0,)')}

DEVICE = {'accelerator.is_available': 'False',
 'accelerator.device_count': '0',
 'accelerator.current_accelerator': 'None',
 'accelerator.current_accelerator(True)': 'None',
 'accelerator.current_device_index': 'RuntimeError: Cannot access accelerator device when '
                                     'none is available.',
 'accelerator.set_device_index(0)': 'RuntimeError: Cannot access accelerator device when none '
                                    'is available.',
 'accelerator.set_device_index(None)': 'ValueError: Expected a torch.device with a specified '
                                       'index or an integer, but got:None',
 'accelerator.synchronize': 'RuntimeError: Cannot access accelerator device when none is '
                            'available.',
 'accelerator.memory_allocated': 'RuntimeError: Cannot access accelerator device when none is '
                                 'available.',
 'accelerator.device_index(None)': 'None',
 'accelerator.device_index(0)': 'RuntimeError: Cannot access accelerator device when none is '
                                'available.',
 'cuda.is_available': 'False',
 'cuda.device_count': '0',
 'cuda.is_bf16_supported': 'False',
 'cuda.get_device_name': 'AssertionError: Torch not compiled with CUDA enabled',
 'cuda.get_device_properties': 'AssertionError: Torch not compiled with CUDA enabled',
 'cuda.memory_allocated': '0',
 'cuda.max_memory_allocated': '0',
 'cuda.memory_reserved': '0',
 'cuda.memory_stats': '{}',
 'cuda.manual_seed_all': 'None',
 'cuda.seed': 'None',
 'cuda.synchronize': 'AssertionError: Torch not compiled with CUDA enabled',
 'cuda.current_device': 'AssertionError: Torch not compiled with CUDA enabled',
 'cuda.initial_seed': 'AssertionError: Torch not compiled with CUDA enabled',
 'cuda.get_arch_list': '[]',
 'cuda.set_device(cpu)': 'ValueError: Expected a cuda device, but got: cpu',
 'cuda.device(-1)': 'None',
 'cuda.device(0)': 'RuntimeError: PyTorch was compiled without CUDA support',
 'cuda.Stream': 'RuntimeError: torch.cuda.Stream requires CUDA support',
 'cuda.Event': 'RuntimeError: Tried to instantiate dummy base class Event',
 'mps.is_available': 'False',
 'mps.device_count': '0',
 'mps.manual_seed': 'None',
 'mps.synchronize': 'RuntimeError: Cannot execute deviceSynchronize() without MPS backend.',
 'mps.empty_cache': 'RuntimeError: Cannot execute emptyCache() without MPS backend.',
 'mps.seed': 'RuntimeError: Cannot execute getDefaultGenerator() without MPS backend.',
 'backends.mps.is_available': 'False',
 'backends.mps.is_built': 'False',
 'backends.cuda.is_built': 'False',
 'backends.cudnn.is_available': 'False',
 'backends.cudnn.version': 'None',
 'backends.cuda.matmul.unknown': 'AttributeError: Unknown attribute unknown_flag',
 'backends.cuda.sdp': '(True, True, True)',
 'cpu.is_available': 'True',
 'cpu.device_count': '1',
 'cpu.current_device': "'cpu'",
 'version.cuda': '(None, None, False)',
 'distributed.is_initialized': 'False',
 'distributed.get_rank': 'ValueError: Default process group has not been initialized, please '
                         'make sure to call init_process_group.',
 'distributed.get_world_size': 'ValueError: Default process group has not been initialized, '
                               'please make sure to call init_process_group.',
 'distributed.barrier': 'ValueError: Default process group has not been initialized, please '
                        'make sure to call init_process_group.',
 'distributed.destroy_process_group': 'AssertionError: Process group cannot be None',
 'DDP': 'ValueError: Default process group has not been initialized, please make sure to call '
        'init_process_group.',
 'data_parallel': 'RuntimeError: device type could not be determined',
 'DataParallel.state_dict': "['module.weight', 'module.bias']",
 'DataParallel.device_ids': '[]',
 'onnx.is_in_onnx_export': 'False',
 'amp.GradScaler(cuda)': 'False',
 'amp.GradScaler(cpu)': "{'scale': 65536.0, 'growth_factor': 2.0, 'backoff_factor': 0.5, "
                        "'growth_interval': 2000, '_growth_tracker': 0}",
 'cuda.amp.GradScaler': '(1.0, {})',
 'amp.is_autocast_available': 'True',
 'autocast(xyz)': 'RuntimeError: Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, '
                  'ideep, hip, ve, fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, '
                  'privateuseone device type at start of device string: xyz',
 'jit.is_scripting': '(False, False)',
 'compiler.is_compiling': 'False',
 'utils.data.get_worker_info': 'None',
 'tensor.is_pinned': 'False',
 'tensor.pin_memory': 'RuntimeError: Cannot access accelerator device when none is available.',
 'tensor.get_device': '-1',
 'tensor.layout': '(torch.strided, torch.strided, torch.channels_last, '
                  'torch.contiguous_format, torch.preserve_format)',
 'tensor.is_mps': '(False, False)',
 'tensor.share_memory_': 'tensor([1., 1.])',
 'tensor.to(channels_last)': 'torch.Size([1, 2, 3, 4])',
 'module.to(channels_last)': 'torch.Size([2, 2])',
 'module.half': 'torch.float16',
 'lstm.flatten_parameters': 'None',
 'constants': '(inf, 3.141592653589793, 2.718281828459045, None, True)'}

LEGACY = {'FloatTensor(list)': 'tensor([1., 2.])',
 'LongTensor(3).zero_()': 'tensor([0, 0, 0])',
 'FloatTensor()': 'tensor([])',
 'FloatTensor(2, 3).shape': 'torch.Size([2, 3])',
 'FloatTensor(Size)': 'torch.Size([2])',
 'LongTensor(floats)': 'tensor([ 1, -2])',
 'LongTensor(array)': 'tensor([1, 2])',
 'ByteTensor(-1)': 'tensor([255], dtype=torch.uint8)',
 'BoolTensor': 'tensor([False,  True])',
 'DoubleTensor': 'tensor([1.5000], dtype=torch.float64)',
 'IntTensor': 'tensor([[1],\n        [2]], dtype=torch.int32)',
 'HalfTensor': 'tensor([1.], dtype=torch.float16)',
 'ShortTensor/CharTensor': '(tensor([1], dtype=torch.int16), tensor([1], dtype=torch.int8))',
 'FloatTensor(tensor)': 'tensor([1., 1.])',
 'FloatTensor(long tensor)': 'TypeError: expected TensorOptions(dtype=float, device=cpu, '
                             'layout=Strided, requires_grad=false (default), '
                             'pinned_memory=false (default), memory_format=(nullopt)) (got '
                             'TensorOptions(dtype=long int, device=cpu, layout=Strided, '
                             'requires_grad=false (default), pinned_memory=false (default), '
                             'memory_format=(nullopt)))',
 'FloatTensor(2, 3.0)': "TypeError: new(): argument 'size' failed to unpack the object at pos "
                        '2 with error "type must be tuple of ints,but got float"',
 'FloatTensor(-1)': 'RuntimeError: Trying to create tensor with negative dimension -1: [-1]',
 'FloatTensor(np scalar)': 'TypeError: new(): data must be a sequence (got numpy.float32)',
 'repr': "(<class 'torch.FloatTensor'>, <class 'torch.LongTensor'>)",
 'dtype': '(torch.float32, torch.uint8)',
 'isinstance': '(True, False, True, True)',
 'type()': "['torch.FloatTensor', 'torch.DoubleTensor', 'torch.LongTensor', "
           "'torch.IntTensor', 'torch.ShortTensor', 'torch.CharTensor', 'torch.ByteTensor', "
           "'torch.BoolTensor', 'torch.HalfTensor']",
 'type(class)': 'tensor([1, 2])',
 'type(str)': 'tensor([1., 2.], dtype=torch.float64)',
 'type(bad str)': "ValueError: invalid type: 'DoubleTensor'",
 'typename': "('torch.LongTensor', 'int', 'object')"}

SEEDED = {'make_tensor float32': 'tensor([[-8.9233, -7.0998, -3.8548],\n'
                        '        [-8.5148, -0.5109, -7.9179]])',
 'make_tensor int64': 'tensor([-5, -1,  4, -1])',
 'make_tensor bool': 'tensor([False,  True,  True,  True, False])',
 'make_tensor noncontiguous': 'tensor([[0.1869, 0.4361],\n'
                              '        [0.0034, 0.8367]], dtype=torch.float64)',
 'make_tensor uint8 exclude_zero': 'tensor([1, 4, 3, 9, 2, 3], dtype=torch.uint8)',
 'make_tensor full range': 'tensor([-3.3734e+38, -1.5932e+38,  6.5462e+36])',
 'make_tensor half grad': 'tensor([ 1.4834, -1.2900, -1.0205], dtype=torch.float16, '
                          'requires_grad=True)',
 'make_tensor low >= high': 'ValueError: `low` must be less than `high`, but got 3 >= 1',
 'make_tensor int grad': 'ValueError: `requires_grad=True` is not supported for boolean and '
                         'integral dtypes, but got dtype=torch.int64',
 'weighted': '([2, 0, 0, 3, 2, 3, 3, 1], [1, 2, 3])',
 'distributed': '[([3, 0, 5, 6], [0, 3, 6]), ([8, 1, 2, 9], [1, 4, 7]), ([10, 4, 7, 3], [2, '
                '5, 8])]',
 'distributed padding': '[0]',
 'distributed bad rank': 'ValueError: Invalid rank 3, rank should be in the interval [0, 2]',
 'distributed no group': 'ValueError: Default process group has not been initialized, please '
                         'make sure to call init_process_group.',
 'after': 'tensor([0.7236, 0.6076])'}
